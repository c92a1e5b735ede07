package config

import "fmt"

// Error is a problem at one line of the config file.
type Error struct {
	Path string
	Line int // 0 when the problem is the file as a whole
	Msg  string
}

func (e *Error) Error() string {
	return where(e.Path, e.Line) + ": " + e.Msg
}

func where(path string, line int) string {
	if path == "" {
		path = "config"
	}
	if line <= 0 {
		return path
	}
	return fmt.Sprintf("%s:%d", path, line)
}
