package inert

import (
	"encoding/base64"
	"strconv"
	"strings"
)

// Bytes renders binary data (DynamoDB B and BS) as standard base64, the same
// encoding DynamoDB's own JSON uses; base64 is printable ASCII, so it is inert
// by construction.
func Bytes(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

// HexPreview shows the first max bytes as hex pairs, followed by the total
// size when cut: "de ad be ef … (1024 bytes)". For table cells, where base64
// of a large blob is useless.
func HexPreview(b []byte, max int) string {
	if max < 0 {
		max = 0
	}
	n := len(b)
	if n > max {
		b = b[:max]
	}
	var sb strings.Builder
	sb.Grow(3*len(b) + 24)
	for i, c := range b {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteByte(hexDigits[c>>4])
		sb.WriteByte(hexDigits[c&0xf])
	}
	if n > max {
		if sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(Ellipsis + " (" + strconv.Itoa(n) + " bytes)")
	}
	return sb.String()
}
