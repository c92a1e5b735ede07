package data

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/config"
)

// UnknownProfileError says a named AWS profile is in neither shared file.
type UnknownProfileError struct{ Profile string }

func (e *UnknownProfileError) Error() string {
	return fmt.Sprintf("unknown AWS profile %q: it is in neither %s nor %s", Escape(e.Profile), sharedConfigFile(), sharedCredentialsFile())
}

// asUnknownProfile turns the SDK's "failed to get shared config profile"
// into an UnknownProfileError.
func asUnknownProfile(err error, profile string) error {
	var nx config.SharedConfigProfileNotExistError
	if errors.As(err, &nx) {
		return &UnknownProfileError{Profile: profile}
	}
	return err
}

// Profiles lists the profile names in the AWS shared config and credentials
// files (AWS_CONFIG_FILE and AWS_SHARED_CREDENTIALS_FILE, else ~/.aws/…),
// sorted, for completion. Only section names are read; an unreadable file
// gives none.
func Profiles() []string {
	var out []string
	add := func(name string) {
		name = strings.TrimSpace(name)
		if name != "" && !slices.Contains(out, name) && !strings.ContainsFunc(name, IsUnsafeRune) {
			out = append(out, name)
		}
	}
	sections(sharedConfigFile(), func(s string) {
		// The config file names profiles "[profile x]", except default;
		// "[sso-session x]" and "[services x]" are not profiles.
		if s == "default" {
			add(s)
		} else if name, ok := strings.CutPrefix(s, "profile "); ok {
			add(name)
		}
	})
	sections(sharedCredentialsFile(), add)
	slices.Sort(out)
	return out
}

// maxSharedFile bounds what Profiles reads of a shared file.
const maxSharedFile = 1 << 20

func sections(path string, each func(string)) {
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, maxSharedFile))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") {
			each(strings.TrimSpace(line[1 : len(line)-1]))
		}
	}
}

func sharedConfigFile() string {
	if p := os.Getenv("AWS_CONFIG_FILE"); p != "" {
		return p
	}
	return filepath.Join(homeDir(), ".aws", "config")
}

func sharedCredentialsFile() string {
	if p := os.Getenv("AWS_SHARED_CREDENTIALS_FILE"); p != "" {
		return p
	}
	return filepath.Join(homeDir(), ".aws", "credentials")
}

func homeDir() string {
	h, _ := os.UserHomeDir()
	return h
}
