package latency

// decimal is a non-negative number written as digits with at most one
// decimal point, split into what the policies need.
type decimal struct {
	whole      uint64 // the integer part, saturated at saturatedWhole
	frac       uint32 // the first four decimals, in units of 1/pctScale
	fracBeyond bool   // a non-zero decimal after the fourth
}

const saturatedWhole = 1 << 62

// parseDecimal parses digits with at most one '.', at least one digit in all
// ("5", "5.", ".5", "05.50"); no sign, exponent or white space.
func parseDecimal(s string) (decimal, bool) {
	var d decimal
	digits, point := 0, false
	scale := uint32(pctScale)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '.' && !point:
			point = true
		case c < '0' || c > '9':
			return decimal{}, false
		case !point:
			// Saturate before multiplying: d.whole*10 wraps around past
			// 2^64, and would read a huge number as a small one.
			if digit := uint64(c - '0'); d.whole <= (saturatedWhole-digit)/10 {
				d.whole = d.whole*10 + digit
			} else {
				d.whole = saturatedWhole
			}
		case scale > 1:
			scale /= 10
			d.frac += uint32(c-'0') * scale
		default:
			d.fracBeyond = d.fracBeyond || c != '0'
		}
		if c != '.' {
			digits++
		}
	}
	return d, digits > 0
}
