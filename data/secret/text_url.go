// The URL scanner of the free-text masker: finding URLs in text (schemes,
// hierarchical and opaque forms) and adding their secret parts — userinfo,
// query values, fragment, token-shaped path segments — to the ranges. Split
// from text.go (the entry points and the range set) because URLs are the one
// structured form the masker parses; token shapes and name=value pairs are in
// text_token.go.

package secret

import (
	"strings"
)

// netScheme reports a scheme whose opaque form ("wss:host:9223/cdp") is
// still a network address, so a token-shaped path segment is a token. Other
// opaque schemes name things (arn:aws:ecs:…:task/…, did:key:z6Mk…,
// urn:uuid:…) whose long segments are ids, not secrets.
func netScheme(scheme string) bool {
	switch strings.ToLower(scheme) {
	case "http", "https", "ws", "wss", "ftp", "ftps", "sftp", "ssh", "redis", "rediss", "postgres", "postgresql",
		"mysql", "mongodb", "mongodb+srv", "amqp", "amqps", "nats", "mqtt", "mqtts", "ldap", "ldaps", "smtp",
		"smtps", "imap", "imaps", "git", "svn", "s3", "gs", "tcp", "udp", "grpc", "grpcs", "jdbc", "devtools":
		return true
	}
	return false
}

func isSchemeChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// schemeAt returns the length of "scheme:" when s[i:] starts with a URL
// scheme (a letter, then letters, digits, + - ., then ':' and something
// that is not a space), else 0.
func schemeAt(s string, i int) int {
	if i >= len(s) || !isLetter(s[i]) {
		return 0
	}
	j := i + 1
	for j < len(s) && isSchemeChar(s[j]) {
		j++
	}
	n := j - i
	if n < 2 || n > 32 || j+1 >= len(s) || s[j] != ':' {
		return 0
	}
	if c := s[j+1]; c == ' ' || c == '\t' || c == '\n' || c == '\r' {
		return 0
	}
	return n + 1
}

// urlEnd is where a URL starting at i ends in free text: at whitespace,
// a quote or an angle bracket.
func urlEnd(s string, i int) int {
	for j := i; j < len(s); j++ {
		switch s[j] {
		case ' ', '\t', '\n', '\r', '"', '\'', '<', '>', '`':
			return j
		}
	}
	return len(s)
}

// scanURLs finds every URL in s and adds its secret parts.
func scanURLs(s string, rs *ranges, strict bool) {
	for i := 0; i < len(s); i++ {
		if s[i] != ':' {
			continue
		}
		// Walk back to the start of the scheme.
		k := i
		for k > 0 && isSchemeChar(s[k-1]) {
			k--
		}
		for k < i && !isLetter(s[k]) {
			k++ // a scheme starts with a letter
		}
		n := schemeAt(s, k)
		if n == 0 || k+n != i+1 {
			continue
		}
		end := urlEnd(s, k)
		if strings.HasPrefix(s[i+1:end], "//") || netScheme(s[k:i]) {
			urlRanges(s, k, end, n, strict, rs)
			i = end
			continue
		}
		// arn:, did:, urn:, a time of day: names, not addresses. Only a
		// query, if one follows, can carry a credential; and a real URL
		// may start later in the same run of text.
		if q := indexIn(s, i+1, end, '?'); q >= 0 {
			queryRanges(s, q+1, end, false, rs)
		}
	}
}

// urlRanges adds the secret parts of the URL s[start:end], whose scheme
// (with its colon) is n bytes long. strict (a URL-named attribute) masks
// every query value, the fragment and any userinfo; otherwise only what is
// named or shaped like a credential.
func urlRanges(s string, start, end, n int, strict bool, rs *ranges) {
	i := start + n
	frag := indexIn(s, i, end, '#')
	if frag < 0 {
		frag = end
	}
	q := indexIn(s, i, frag, '?')
	if q < 0 {
		q = frag
	}
	pathStart := i
	if strings.HasPrefix(s[i:end], "//") {
		auth := i + 2
		authEnd := auth
		for authEnd < q && s[authEnd] != '/' {
			authEnd++
		}
		if at := strings.LastIndexByte(s[auth:authEnd], '@'); at >= 0 {
			ui := s[auth : auth+at]
			if c := strings.IndexByte(ui, ':'); c >= 0 {
				rs.add(auth+c+1, auth+at) // the password
				if looksLikeToken(ui[:c]) {
					rs.add(auth, auth+c)
				}
			} else if strict || looksLikeToken(ui) {
				rs.add(auth, auth+at) // a token used as the user name
			}
		}
		pathStart = authEnd
	}
	// Path (or the opaque part): token-shaped segments, and matrix or
	// embedded name=value pairs.
	seg := pathStart
	for j := pathStart; j <= q; j++ {
		if j == q || s[j] == '/' || s[j] == ';' {
			segment(s, seg, j, true, rs)
			seg = j + 1
		}
	}
	if q < frag {
		queryRanges(s, q+1, frag, strict, rs)
	}
	if frag < end {
		if strict {
			rs.add(frag+1, end)
		} else {
			queryRanges(s, frag+1, end, false, rs)
		}
	}
}

// queryRanges masks the values of a query (or fragment) s[start:end]:
// all of them when strict, else those named like a credential or shaped
// like a token (a value that is itself a path or URL is searched).
func queryRanges(s string, start, end int, strict bool, rs *ranges) {
	p := start
	for j := start; j <= end; j++ {
		if j < end && s[j] != '&' && s[j] != ';' {
			continue
		}
		pair := s[p:j]
		if eq := strings.IndexByte(pair, '='); eq >= 0 {
			vs, ve := p+eq+1, j
			switch {
			case strict || SecretName(unescapeName(pair[:eq])):
				rs.add(vs, ve)
			default:
				segment(s, vs, ve, true, rs)
			}
			segment(s, p, p+eq, true, rs) // a name that is not one
		} else {
			segment(s, p, j, true, rs)
		}
		p = j + 1
	}
}

// segment masks s[start:end] when it is token-shaped; a value holding a
// path or a nested URL is searched piece by piece (split at / : ,).
func segment(s string, start, end int, nested bool, rs *ranges) {
	if end <= start {
		return
	}
	v := s[start:end]
	if eq := strings.IndexByte(v, '='); eq > 0 {
		// A matrix parameter or a name=value in a path segment.
		if SecretName(unescapeName(v[:eq])) {
			rs.add(start+eq+1, end)
			return
		}
	}
	if looksLikeToken(v) {
		rs.add(start, end)
		return
	}
	if !nested {
		return
	}
	p := start
	for j := start; j <= end; j++ {
		if j == end || strings.IndexByte("/:,%?#&=@;+", s[j]) >= 0 {
			if looksLikeToken(s[p:j]) {
				rs.add(p, j)
			}
			p = j + 1
		}
	}
}

// unescapeName undoes the percent-encoding of '_' and '-' that some
// clients apply to parameter names; enough to recognise a name.
func unescapeName(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	r := strings.NewReplacer("%5F", "_", "%5f", "_", "%2D", "-", "%2d", "-")
	return r.Replace(s)
}

func indexIn(s string, from, to int, c byte) int {
	if from >= to {
		return -1
	}
	if k := strings.IndexByte(s[from:to], c); k >= 0 {
		return from + k
	}
	return -1
}
