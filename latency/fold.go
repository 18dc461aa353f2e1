package latency

// equalFoldASCII reports whether s and t are equal under ASCII case folding
// only: the grammar is ASCII, and Unicode folding would let "ALWAYſ" in.
func equalFoldASCII(s, t string) bool {
	if len(s) != len(t) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if lowerASCII(s[i]) != lowerASCII(t[i]) {
			return false
		}
	}
	return true
}

// cutSuffixFold returns s without suffix, matched in any ASCII case.
func cutSuffixFold(s, suffix string) (string, bool) {
	n := len(s) - len(suffix)
	if n < 0 || !equalFoldASCII(s[n:], suffix) {
		return "", false
	}
	return s[:n], true
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
