package data

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// SDK-visible session statuses (what Wallcrawler's API returns to clients).
const (
	SessionRunning   = "RUNNING"
	SessionCompleted = "COMPLETED"
	SessionError     = "ERROR"
	SessionTimedOut  = "TIMED_OUT"
)

// sdkStatus maps every status string Wallcrawler writes (to `status` or to
// `internalStatus`) to the status its API shows. The SDK statuses map to
// themselves so either attribute can be fed through it.
var sdkStatus = map[string]string{
	"CREATING":     SessionRunning,
	"PROVISIONING": SessionRunning,
	"STARTING":     SessionRunning,
	"READY":        SessionRunning,
	"ACTIVE":       SessionRunning,
	"TERMINATING":  SessionRunning,
	"RUNNING":      SessionRunning,
	"STOPPED":      SessionCompleted,
	"COMPLETED":    SessionCompleted,
	"FAILED":       SessionError,
	"ERROR":        SessionError,
	"TIMED_OUT":    SessionTimedOut,
}

// SDKStatus derives the status Wallcrawler's API would show for a stored
// (status, internalStatus) pair. An ended session can never look running:
// if either attribute says the session ended, that wins (status first),
// which is how a row whose `status` the container set to STOPPED shows
// COMPLETED even while internalStatus still says READY. Otherwise RUNNING
// if either says so. Unknown values give "" (the caller shows the raw one).
func SDKStatus(status, internalStatus string) string {
	s := sdkStatus[strings.ToUpper(strings.TrimSpace(status))]
	i := sdkStatus[strings.ToUpper(strings.TrimSpace(internalStatus))]
	switch {
	case s != "" && s != SessionRunning:
		return s
	case i != "" && i != SessionRunning:
		return i
	case s != "":
		return s
	default:
		return i
	}
}

// Session is one wallcrawler-sessions item.
type Session struct {
	Meta
	SessionID      string
	Status         string // as stored; may be a lifecycle value like STOPPED
	InternalStatus string
	// SDKStatus is derived from Status and InternalStatus exactly as
	// Wallcrawler's API does (see SDKStatus); "" when neither is known.
	SDKStatus string

	ProjectID string
	CreatedAt time.Time
	UpdatedAt time.Time // some container writes store unix seconds (flagged)
	StartedAt time.Time
	EndedAt   time.Time // set by the release path; zero while running
	ExpiresAt time.Time // TTL; also the sort key of status-expiresAt-index

	KeepAlive         bool
	Region            string
	PublicIP          string
	ECSTaskArn        string
	ContextID         string
	ContextPersist    bool
	ContextStorageKey string

	// Secrets, kept verbatim: the UI masks them, the data layer does not.
	SigningKey        string
	ConnectURL        string
	SeleniumRemoteURL string

	ProxyBytes         Number
	AvgCPUUsage        Number
	MemoryUsage        Number
	EventHistory       []types.AttributeValue
	LastEventTimestamp time.Time
	RetryCount         Number
	UserMetadata       map[string]types.AttributeValue
}

// DecodeSession reads a session item. It never panics.
func DecodeSession(item Item) Session {
	d := newDecoder(TableSessions, item)
	s := Session{
		SessionID:          d.str("sessionId", true),
		Status:             d.str("status", true),
		InternalStatus:     d.str("internalStatus", false),
		ProjectID:          d.str("projectId", true),
		CreatedAt:          d.timeAttr("createdAt", "S", true),
		UpdatedAt:          d.timeAttr("updatedAt", "S", false),
		StartedAt:          d.timeAttr("startedAt", "S", false),
		EndedAt:            d.timeAttr("endedAt", "S", false),
		ExpiresAt:          d.timeAttr("expiresAt", "N", false),
		KeepAlive:          d.boolean("keepAlive", false),
		Region:             d.str("region", false),
		PublicIP:           d.str("publicIP", false),
		ECSTaskArn:         d.str("ecsTaskArn", false),
		ContextID:          d.str("contextId", false),
		ContextPersist:     d.boolean("contextPersist", false),
		ContextStorageKey:  d.str("contextStorageKey", false),
		SigningKey:         d.str("signingKey", false),
		ConnectURL:         d.str("connectUrl", false),
		SeleniumRemoteURL:  d.str("seleniumRemoteUrl", false),
		ProxyBytes:         d.count("proxyBytes", false),
		EventHistory:       d.listAttr("eventHistory"),
		LastEventTimestamp: d.timeAttr("lastEventTimestamp", "S", false),
		RetryCount:         d.count("retryCount", false),
		UserMetadata:       d.mapAttr("userMetadata", false),
	}
	s.AvgCPUUsage = d.num("avgCpuUsage", false)
	s.MemoryUsage = d.num("memoryUsage", false)
	s.SDKStatus = SDKStatus(s.Status, s.InternalStatus)
	if s.SDKStatus == "" && (s.Status != "" || s.InternalStatus != "") {
		d.flag("status", "known Wallcrawler status", "S", fmt.Sprintf("no SDK status for %q / %q", Clip(s.Status, 30), Clip(s.InternalStatus, 30)))
	}
	s.Meta = d.finish()
	return s
}

func (Session) Table() TableID { return TableSessions }
func (s Session) Key() Item    { return KeyOf(TableSessions, s.Raw) }
func (s Session) ID() string   { return s.SessionID }
func (s Session) Ended() bool  { return s.SDKStatus != "" && s.SDKStatus != SessionRunning }
func (s Session) HasSecret() bool {
	return s.SigningKey != "" || s.ConnectURL != "" || s.SeleniumRemoteURL != ""
}

// Project is one wallcrawler-projects item.
type Project struct {
	Meta
	ProjectID string
	Name      string
	OwnerID   string
	// DefaultTimeout is defaultTimeout (seconds) as a duration; zero when
	// absent or when it is not whole seconds a duration can hold, in which
	// case DefaultTimeoutSeconds still shows what is stored.
	DefaultTimeout        time.Duration
	DefaultTimeoutSeconds Number
	Concurrency           Number
	Status                string // ACTIVE or INACTIVE
	CreatedAt             time.Time
	UpdatedAt             time.Time
	BillingTier           string
}

// DecodeProject reads a project item. It never panics.
func DecodeProject(item Item) Project {
	d := newDecoder(TableProjects, item)
	p := Project{
		ProjectID:   d.str("projectId", true),
		Name:        d.str("name", false),
		OwnerID:     d.str("ownerId", false),
		Concurrency: d.count("concurrency", false),
		Status:      d.str("status", false),
		CreatedAt:   d.timeAttr("createdAt", "S", false),
		UpdatedAt:   d.timeAttr("updatedAt", "S", false),
		BillingTier: d.str("billingTier", false),
	}
	p.DefaultTimeoutSeconds = d.count("defaultTimeout", false)
	if sec, ok := p.DefaultTimeoutSeconds.Int64(); ok && sec > 0 && sec <= int64(math.MaxInt64/time.Second) {
		p.DefaultTimeout = time.Duration(sec) * time.Second
	}
	p.Meta = d.finish()
	return p
}

func (Project) Table() TableID { return TableProjects }
func (p Project) Key() Item    { return KeyOf(TableProjects, p.Raw) }
func (p Project) ID() string   { return p.ProjectID }

// APIKey is one wallcrawler-api-keys item. Only the hash is stored, never the
// key itself.
type APIKey struct {
	Meta
	APIKeyHash string
	KeyID      string
	ProjectID  string
	ProjectIDs []string // additional accessible projects
	Name       string
	Status     string
	CreatedAt  time.Time
	LastUsedAt time.Time
}

// DecodeAPIKey reads an API key item. It never panics.
func DecodeAPIKey(item Item) APIKey {
	d := newDecoder(TableAPIKeys, item)
	k := APIKey{
		APIKeyHash: d.str("apiKeyHash", true),
		KeyID:      d.str("keyId", false),
		ProjectID:  d.str("projectId", true),
		ProjectIDs: d.stringList("projectIds"),
		Name:       d.str("name", false),
		Status:     d.str("status", false),
		CreatedAt:  d.timeAttr("createdAt", "S", false),
		LastUsedAt: d.timeAttr("lastUsedAt", "S", false),
	}
	k.Meta = d.finish()
	return k
}

func (APIKey) Table() TableID { return TableAPIKeys }
func (k APIKey) Key() Item    { return KeyOf(TableAPIKeys, k.Raw) }

// ID prefers the friendly keyId; the hash is long and meaningless to humans.
func (k APIKey) ID() string {
	if k.KeyID != "" {
		return k.KeyID
	}
	return k.APIKeyHash
}

// BrowserContext is one wallcrawler-contexts item (a persisted Chrome
// profile).
type BrowserContext struct {
	Meta
	ContextID  string
	ProjectID  string
	StorageKey string
	CreatedAt  time.Time
	UpdatedAt  time.Time
	Status     string
}

// DecodeBrowserContext reads a context item. It never panics.
func DecodeBrowserContext(item Item) BrowserContext {
	d := newDecoder(TableContexts, item)
	c := BrowserContext{
		ContextID:  d.str("contextId", true),
		ProjectID:  d.str("projectId", false),
		StorageKey: d.str("storageKey", false),
		CreatedAt:  d.timeAttr("createdAt", "S", false),
		UpdatedAt:  d.timeAttr("updatedAt", "S", false),
		Status:     d.str("status", false),
	}
	c.Meta = d.finish()
	return c
}

func (BrowserContext) Table() TableID { return TableContexts }
func (c BrowserContext) Key() Item    { return KeyOf(TableContexts, c.Raw) }
func (c BrowserContext) ID() string   { return c.ContextID }
