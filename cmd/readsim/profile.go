package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"runtime/trace"
)

// startProfiles starts the CPU profile and the execution trace that o
// asks for. The returned stop ends them and closes their files.
func startProfiles(o options) (stop func() error, err error) {
	// Both paths are checked before either is created: a bad one is a bad
	// command line, which must not truncate the other's earlier profile.
	for _, f := range [][2]string{{"-cpuprofile", o.cpuProfile}, {"-trace", o.trace}} {
		if f[1] == "" {
			continue
		}
		if _, err := checkCreatable(f[0], f[1]); err != nil {
			return nil, fmt.Errorf("%w: %w", errUsage, err)
		}
	}
	var stops []func() error
	stop = func() error {
		var errs []error
		for i := len(stops) - 1; i >= 0; i-- {
			errs = append(errs, stops[i]())
		}
		return errors.Join(errs...)
	}
	if o.cpuProfile != "" {
		s, err := startFile("-cpuprofile", o.cpuProfile, pprof.StartCPUProfile, pprof.StopCPUProfile)
		if err != nil {
			return nil, errors.Join(err, stop())
		}
		stops = append(stops, s)
	}
	if o.trace != "" {
		s, err := startFile("-trace", o.trace, trace.Start, trace.Stop)
		if err != nil {
			return nil, errors.Join(err, stop())
		}
		stops = append(stops, s)
	}
	return stop, nil
}

// startFile creates path, the value of flag, and starts writing a profile
// to it. A path it cannot create is a bad command line: errUsage.
func startFile(flag, path string, start func(w io.Writer) error, end func()) (func() error, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %s %s: %w", errUsage, flag, path, pathCause(err))
	}
	if err := start(f); err != nil {
		return nil, errors.Join(err, f.Close())
	}
	return func() error { end(); return f.Close() }, nil
}
