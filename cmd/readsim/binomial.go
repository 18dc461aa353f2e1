package main

import "math"

// binomialAtLeast returns P(X ≥ k) for X binomial of n trials of
// probability u, summing the terms from k away from the mode (each smaller
// than the one before) until they no longer count: a few times √n terms,
// not n.
func binomialAtLeast(n, k int, u float64) float64 {
	switch {
	case k <= 0 || u >= 1:
		return 1
	case k > n || u <= 0:
		return 0
	}
	lu, lv := math.Log(u), math.Log1p(-u)
	lgn, _ := math.Lgamma(float64(n + 1))
	term := func(j int) float64 {
		lj, _ := math.Lgamma(float64(j + 1))
		lr, _ := math.Lgamma(float64(n - j + 1))
		return math.Exp(lgn - lj - lr + float64(j)*lu + float64(n-j)*lv)
	}
	sum := func(from, step int) float64 {
		s := 0.0
		for j := from; j >= 0 && j <= n; j += step {
			t := term(j)
			s += t
			if t <= s*1e-17 {
				break
			}
		}
		return s
	}
	if float64(k) > float64(n+1)*u { // k past the mode: the terms from k up fall
		return min(sum(k, 1), 1)
	}
	return max(1-sum(k-1, -1), 0) // the terms from k-1 down fall
}

// binomialQuantile returns the u at which P(X ≥ k), X binomial of n trials
// of probability u, is p: it grows with u, so bisection finds it.
func binomialQuantile(n, k int, p float64) float64 {
	lo, hi := 0.0, 1.0
	for range 60 {
		mid := (lo + hi) / 2
		if binomialAtLeast(n, k, mid) < p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}
