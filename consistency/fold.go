package consistency

// equalFoldASCII reports whether s equals the upper-case ASCII name in any
// ASCII letter case. Unlike strings.EqualFold it does not apply Unicode
// folding, so "ſERIAL" (long s) is not SERIAL.
func equalFoldASCII(s, name string) bool {
	if len(s) != len(name) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		if c != name[i] {
			return false
		}
	}
	return true
}
