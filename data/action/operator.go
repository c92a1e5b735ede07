package action

import (
	"os"
	"os/user"
	"strings"
)

// Operator is who performs an action: user@host and the AWS profile in use.
// It goes into the audit log and, for sessions, into eventHistory.
type Operator struct {
	User    string // user@host
	Profile string
}

// CurrentOperator describes the person at this terminal. It never fails: an
// unknown part reads "unknown", because an action must still be attributable.
func CurrentOperator(profile string) Operator {
	name := ""
	if u, err := user.Current(); err == nil {
		name = u.Username
	}
	if name == "" {
		name = os.Getenv("USER")
	}
	if name == "" {
		name = "unknown"
	}
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "unknown"
	}
	// A Windows-style DOMAIN\user keeps only the user part: the host says
	// where it ran already.
	if i := strings.LastIndexByte(name, '\\'); i >= 0 {
		name = name[i+1:]
	}
	return Operator{User: name + "@" + host, Profile: profile}
}

// String is "user@host (profile)".
func (o Operator) String() string {
	if o.Profile == "" {
		return o.User
	}
	return o.User + " (" + o.Profile + ")"
}
