package main

import (
	"errors"
	"io"
	"os"
	"runtime/pprof"
	"runtime/trace"
)

// startProfiles starts the CPU profile and the execution trace that o
// asks for. The returned stop ends them and closes their files.
func startProfiles(o options) (stop func() error, err error) {
	var stops []func() error
	stop = func() error {
		var errs []error
		for i := len(stops) - 1; i >= 0; i-- {
			errs = append(errs, stops[i]())
		}
		return errors.Join(errs...)
	}
	if o.cpuProfile != "" {
		s, err := startFile(o.cpuProfile, pprof.StartCPUProfile, pprof.StopCPUProfile)
		if err != nil {
			return nil, errors.Join(err, stop())
		}
		stops = append(stops, s)
	}
	if o.trace != "" {
		s, err := startFile(o.trace, trace.Start, trace.Stop)
		if err != nil {
			return nil, errors.Join(err, stop())
		}
		stops = append(stops, s)
	}
	return stop, nil
}

// startFile creates path and starts writing a profile to it.
func startFile(path string, start func(w io.Writer) error, end func()) (func() error, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := start(f); err != nil {
		return nil, errors.Join(err, f.Close())
	}
	return func() error { end(); return f.Close() }, nil
}
