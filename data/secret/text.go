// The free-text masker: Text and the URL-attribute masker, the fast path
// that skips plain values, and the range set every scanner marks into.
// The scanners are split by job: text_url.go finds URLs and their secret
// parts, text_token.go token shapes and name=value pairs.

package secret

import (
	"sort"
	"strings"
)

// Text masks the credentials found in free text: the secret parts of every
// URL in it (hierarchical or opaque), JWTs, bearer and basic tokens, PEM
// private keys, and name=value (or name: value, "name":"value") pairs whose
// name says credential. It reports whether anything was masked.
func Text(s string) (string, bool) {
	if !worthScanning(s) {
		return s, false
	}
	v := validText(s)
	var rs ranges
	scanURLs(v, &rs, false)
	scanPatterns(v, &rs)
	if len(rs) == 0 {
		return s, false
	}
	return rs.apply(v)
}

// maskURLAttr masks a string held under a URL-named attribute: the string
// is the URL, so every query value, the fragment and the userinfo are
// secret. A string that cannot be read as one URL (control characters,
// spaces) is masked whole: there is no telling where its token is.
func maskURLAttr(s string) (string, bool) {
	s = validText(s)
	scheme := schemeAt(s, 0)
	if scheme == 0 {
		// A relative URL, a host, a bare query string: read as a URL
		// without a scheme, and search the rest as text.
		if hasControl(s) || looksLikeToken(s) {
			return Mask, true
		}
		var rs ranges
		if !strings.ContainsAny(s, " \t\n\r") {
			urlRanges(s, 0, len(s), 0, true, &rs)
		}
		scanURLs(s, &rs, false)
		scanPatterns(s, &rs)
		if len(rs) == 0 {
			return s, false
		}
		return rs.apply(s)
	}
	if hasControl(s) || strings.ContainsAny(s, " \t\n\r\"'<>`") {
		return Mask, true
	}
	var rs ranges
	urlRanges(s, 0, len(s), scheme, true, &rs)
	scanPatterns(s, &rs)
	return rs.apply(s)
}

// worthScanning is the fast path: most values (ids, statuses, numbers,
// words) hold none of the characters a credential pattern needs. One pass:
// every cell of a load-all's rows comes through here (900k for 100k
// sessions).
func worthScanning(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ':', '=', '@':
			return true
		case 'e':
			if strings.HasPrefix(s[i:], "eyJ") {
				return true
			}
		case '-':
			if strings.HasPrefix(s[i:], "-----BEGIN") {
				return true
			}
		case 'b', 'B':
			if (hasPrefixFold(s[i:], "bearer ") || hasPrefixFold(s[i:], "basic ")) && (i == 0 || !isLetter(s[i-1])) {
				return true
			}
		case 't', 'T':
			if hasPrefixFold(s[i:], "token ") && (i == 0 || !isLetter(s[i-1])) {
				return true
			}
		}
	}
	return false
}

// hasPrefixFold is strings.HasPrefix ignoring ASCII case (prefix is lower
// case).
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for j := 0; j < len(prefix); j++ {
		c := s[j]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[j] {
			return false
		}
	}
	return true
}

func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f {
			return true
		}
	}
	return strings.ContainsRune(s, '\u0085')
}

// ranges are byte ranges [start, end) to replace with Mask.
type ranges [][2]int

func (r *ranges) add(start, end int) {
	if end > start {
		*r = append(*r, [2]int{start, end})
	}
}

// apply replaces the ranges (merged where they overlap or touch) with Mask.
func (r ranges) apply(s string) (string, bool) {
	if len(r) == 0 {
		return s, false
	}
	sort.Slice(r, func(i, j int) bool { return r[i][0] < r[j][0] })
	var b strings.Builder
	b.Grow(len(s))
	pos := 0
	for i := 0; i < len(r); {
		start, end := r[i][0], r[i][1]
		j := i + 1
		for j < len(r) && r[j][0] <= end {
			end = max(end, r[j][1])
			j++
		}
		if start < pos {
			start = pos
		}
		if start < end {
			b.WriteString(s[pos:start])
			b.WriteString(Mask)
			pos = end
		}
		i = j
	}
	b.WriteString(s[pos:])
	return b.String(), true
}
