package stream

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// errTooLarge is returned by a GetRecords whose answer was longer than the
// reader allowed: the body was cut off, nothing of it was used.
type errTooLarge struct{ limit int64 }

func (e *errTooLarge) Error() string {
	return fmt.Sprintf("GetRecords answer larger than %d bytes: cut off", e.limit)
}

// bodyCap is a deserialize middleware placed next to the transport (inside
// the SDK's own deserializer): it refuses an answer whose Content-Length is
// over the cap before reading any of it, and otherwise wraps the body so
// that reading past the cap fails. The SDK decodes a whole answer into
// memory several times its size, so the cap must act before decoding.
// read counts the bytes of the answer the deserializer consumed, so the
// reader can size its next request.
type bodyCap struct {
	max     int64
	read    int64
	tripped bool
}

func (*bodyCap) ID() string { return "OpsdeckBodyCap" }

func (c *bodyCap) HandleDeserialize(ctx context.Context, in middleware.DeserializeInput, next middleware.DeserializeHandler) (middleware.DeserializeOutput, middleware.Metadata, error) {
	out, md, err := next.HandleDeserialize(ctx, in)
	if err != nil {
		return out, md, err
	}
	resp, ok := out.RawResponse.(*smithyhttp.Response)
	if !ok || resp.Body == nil {
		return out, md, err
	}
	if resp.ContentLength > c.max {
		c.tripped = true
		// Closing unread drops the connection, so the server stops sending.
		resp.Body.Close()
		resp.Body = io.NopCloser(&failReader{err: &errTooLarge{limit: c.max}})
		return out, md, &errTooLarge{limit: c.max}
	}
	resp.Body = &cappedBody{rc: resp.Body, c: c}
	return out, md, nil
}

// addBodyCap installs c on one call's stack.
func addBodyCap(c *bodyCap) func(*dynamodbstreams.Options) {
	return func(o *dynamodbstreams.Options) {
		o.APIOptions = append(o.APIOptions, func(st *middleware.Stack) error {
			return st.Deserialize.Insert(c, "OperationDeserializer", middleware.After)
		})
	}
}

type cappedBody struct {
	rc io.ReadCloser
	c  *bodyCap
}

func (b *cappedBody) Read(p []byte) (int, error) {
	left := b.c.max - b.c.read
	if left <= 0 {
		// One byte more than allowed tells "exactly at the cap" from "over".
		var one [1]byte
		n, err := b.rc.Read(one[:])
		if n > 0 {
			b.c.tripped = true
			return 0, &errTooLarge{limit: b.c.max}
		}
		return 0, err
	}
	if int64(len(p)) > left {
		p = p[:left]
	}
	n, err := b.rc.Read(p)
	b.c.read += int64(n)
	return n, err
}

func (b *cappedBody) Close() error { return b.rc.Close() }

type failReader struct{ err error }

func (f *failReader) Read([]byte) (int, error) { return 0, f.err }

// isTooLarge reports whether err (or the cap that saw the call) says the
// answer was cut off for its size.
func isTooLarge(err error, c *bodyCap) bool {
	var tl *errTooLarge
	return errors.As(err, &tl) || (err != nil && c != nil && c.tripped)
}
