package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"gopkg.in/yaml.v3"
)

// maxFileSize guards against pointing --config at something huge by mistake.
const maxFileSize = 1 << 20

// Load reads the config file at path (DefaultPath when empty). A missing file
// is fine when it is the default one (defaults are returned) and an error
// when the user named it explicitly (--config).
func Load(path string, explicit bool) (*Config, error) {
	if path == "" {
		path = DefaultPath()
	}
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) && !explicit {
			return Default(), nil
		}
		return nil, &Error{Path: path, Msg: fmt.Sprintf("cannot read config file: %v", errors.Unwrap(err))}
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return nil, &Error{Path: path, Msg: "is a directory, not a config file"}
	}
	data, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return nil, &Error{Path: path, Msg: fmt.Sprintf("cannot read config file: %v", err)}
	}
	if len(data) > maxFileSize {
		return nil, &Error{Path: path, Msg: "larger than 1 MiB; this is not a config file"}
	}
	return Parse(path, data)
}

// Parse decodes config file contents; path is only used in error messages.
func Parse(path string, data []byte) (*Config, error) {
	c := Default()
	c.Path = path
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return c, nil // empty file: all defaults
		}
		return nil, syntaxError(path, err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		line := extra.Line
		if err != nil {
			return nil, syntaxError(path, err)
		}
		return nil, &Error{Path: path, Line: line, Msg: "more than one YAML document; put everything in one"}
	}
	d := &decoder{path: path, c: c}
	if err := d.top(&doc); err != nil {
		return nil, err
	}
	return c, nil
}

// syntaxError turns yaml.v3's "yaml: line 3: …" into our path:line form.
func syntaxError(path string, err error) error {
	var line int
	var msg string
	if n, _ := fmt.Sscanf(err.Error(), "yaml: line %d:", &line); n == 1 {
		if _, after, ok := cutAfter(err.Error(), ": "); ok {
			msg = after
		}
	}
	if msg == "" {
		msg = err.Error()
		line = 0
	}
	return &Error{Path: path, Line: line, Msg: "YAML syntax: " + msg}
}

// cutAfter splits s after the second occurrence of sep ("yaml: line 3: x").
func cutAfter(s, sep string) (string, string, bool) {
	first := bytes.Index([]byte(s), []byte(sep))
	if first < 0 {
		return s, "", false
	}
	rest := s[first+len(sep):]
	second := bytes.Index([]byte(rest), []byte(sep))
	if second < 0 {
		return s, "", false
	}
	return s[:first+len(sep)+second], rest[second+len(sep):], true
}
