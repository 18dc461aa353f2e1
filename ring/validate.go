package ring

// Validate returns nil for a Locator made by NewLocator, and a
// *ConfigError for a nil or zero one, which is not usable: coordinator.New
// refuses such a Locator with it, rather than the first read crashing.
func (l *Locator) Validate() error {
	if l == nil || l.state.Load() == nil {
		return &ConfigError{Setting: "Locator", Reason: "the zero Locator is not usable: make one with NewLocator"}
	}
	return nil
}

// Validate returns nil for a Detector made by NewDetector, and a
// *ConfigError for a nil or zero one, which is not usable: coordinator.New
// refuses such a Detector (as its Liveness or Outcomes) with it, rather
// than the first read crashing.
func (d *Detector) Validate() error {
	if d == nil || d.nodes.Load() == nil {
		return &ConfigError{Setting: "Detector", Reason: "the zero Detector is not usable: make one with NewDetector"}
	}
	return nil
}
