// Over 400 lines on purpose: seed data (the Wallcrawler world), not logic.

package demo

import (
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
)

// wcProject is one Wallcrawler project of the demo world, with the mix of
// session lifecycle states it starts with.
type wcProject struct {
	ID          string
	Name        string
	Owner       string
	Tier        string
	Status      string // ACTIVE or INACTIVE
	Concurrency int
	Timeout     time.Duration // defaultTimeout
	Age         time.Duration // how long ago the project was created
	// States lists internalStatus → number of sessions; "STOPPED*" are
	// container-written rows (status=STOPPED, numeric updatedAt).
	States []stateCount
	// Metadata builds the userMetadata a client of this project sends.
	Metadata func(g *gen) Item
}

type stateCount struct {
	State string
	N     int
}

// Wallcrawler internal statuses, in lifecycle order, and the SDK status each
// shows as (the data layer derives the same, see data.SDKStatus).
var wcInternalStatuses = []string{"CREATING", "PROVISIONING", "STARTING", "READY", "ACTIVE", "TERMINATING", "STOPPED", "FAILED", "TIMED_OUT"}

func wcSDKStatus(internal string) string {
	switch internal {
	case "STOPPED":
		return "COMPLETED"
	case "FAILED":
		return "ERROR"
	case "TIMED_OUT":
		return "TIMED_OUT"
	default:
		return "RUNNING"
	}
}

// The AWS account the demo's Fargate tasks and graph runs live in.
const demoAccount = "418295036614"

const messyStopped = "STOPPED*"

var wcProjects = []wcProject{
	{
		ID: "proj_acme_scraper", Name: "Acme price scraper", Owner: "org_acme", Tier: "growth",
		Status: "ACTIVE", Concurrency: 25, Timeout: 4 * time.Hour, Age: 412 * 24 * time.Hour,
		States: []stateCount{{"CREATING", 2}, {"PROVISIONING", 2}, {"STARTING", 2}, {"READY", 5}, {"ACTIVE", 8},
			{"TERMINATING", 2}, {"STOPPED", 5}, {messyStopped, 2}, {"FAILED", 3}, {"TIMED_OUT", 3}},
		Metadata: func(g *gen) Item {
			return Item{
				"team":     avS("pricing"),
				"job":      avS(fmt.Sprintf("sku-crawl-%04d", g.between(1, 9999))),
				"retailer": avS(pick(g, []string{"bestbuy.com", "target.com", "walmart.com", "homedepot.com", "ikea.com"})),
				"attempt":  avN(int64(g.between(1, 3))),
				"tags":     avSL(pick(g, [][]string{{"nightly"}, {"nightly", "eu"}, {"adhoc"}, {"priority", "us"}})...),
			}
		},
	},
	{
		ID: "project_default", Name: "Default project", Tier: "free",
		Status: "ACTIVE", Concurrency: 10, Timeout: time.Hour, Age: 530 * 24 * time.Hour,
		States: []stateCount{{"CREATING", 1}, {"PROVISIONING", 1}, {"READY", 3}, {"ACTIVE", 4},
			{"TERMINATING", 1}, {"STOPPED", 5}, {messyStopped, 1}, {"FAILED", 2}, {"TIMED_OUT", 2}},
		Metadata: func(g *gen) Item {
			return Item{
				"source": avS(pick(g, []string{"sdk-python/0.9.2", "sdk-node/1.4.0", "stagehand/2.1.0"})),
				"script": avS(pick(g, []string{"login-check", "export-invoices", "screenshot-homepage", "form-fill"})),
			}
		},
	},
	{
		ID: "proj_northwind_qa", Name: "Northwind QA nightly", Owner: "org_northwind", Tier: "starter",
		Status: "ACTIVE", Concurrency: 4, Timeout: 2 * time.Hour, Age: 97 * 24 * time.Hour,
		// Exactly four running sessions: this project sits at its quota.
		States: []stateCount{{"READY", 1}, {"ACTIVE", 3}, {"STOPPED", 6}, {"FAILED", 2}, {"TIMED_OUT", 2}},
		Metadata: func(g *gen) Item {
			return Item{
				"suite":  avS(pick(g, []string{"checkout-e2e", "search-e2e", "account-e2e"})),
				"branch": avS(pick(g, []string{"main", "release/2.14", "feat/new-cart"})),
				"build":  avN(int64(g.between(18000, 18999))),
				"ci":     avS("github-actions"),
			}
		},
	},
	{
		ID: "proj_legacy_crawler", Name: "Legacy crawler (retired)", Owner: "org_acme", Tier: "free",
		Status: "INACTIVE", Concurrency: 2, Timeout: time.Hour, Age: 900 * 24 * time.Hour,
		States: []stateCount{{"STOPPED", 3}, {messyStopped, 1}, {"FAILED", 1}, {"TIMED_OUT", 1}},
	},
}

func seedWallcrawler(g *gen, w *world) {
	for _, p := range wcProjects {
		w.report.Projects = append(w.report.Projects, p.ID)
		w.add(data.TableProjects, p.Status, projectItem(g, p))
		seedAPIKeys(g, w, p)
		contexts := seedContexts(g, w, p)
		for _, sc := range p.States {
			for range sc.N {
				it := planSession(g, p, sc.State, contexts).item()
				w.add(data.TableSessions, strAttr(it, "internalStatus"), it)
			}
		}
	}
	w.report.Defaults.SessionsProject = wcProjects[0].ID
	w.report.Defaults.SessionsStatus = "RUNNING"
}

func projectItem(g *gen, p wcProject) Item {
	created := g.ago(p.Age)
	it := Item{
		"projectId":      avS(p.ID),
		"name":           avS(p.Name),
		"defaultTimeout": avN(int64(p.Timeout / time.Second)),
		"concurrency":    avN(int64(p.Concurrency)),
		"status":         avS(p.Status),
		"createdAt":      avS(iso(created)),
		"updatedAt":      avS(iso(g.ago(g.jitter(2*time.Hour, 30*24*time.Hour)))),
	}
	if p.Owner != "" {
		it["ownerId"] = avS(p.Owner)
	}
	if p.Tier != "" {
		it["billingTier"] = avS(p.Tier)
	}
	return it
}

func seedAPIKeys(g *gen, w *world, p wcProject) {
	labels := []string{"ci-runner", "scheduler", "local-dev"}
	n := 2 + g.intn(2)
	for i := range n {
		raw := "wc_" + g.alnum(40) // never stored; only its hash is
		status := "ACTIVE"
		if (i == n-1 && n == 3) || p.Status == "INACTIVE" {
			status = "INACTIVE"
		}
		it := Item{
			"apiKeyHash": avS(sha256hex(raw)),
			"keyId":      avS("key_" + g.alnum(10)),
			"projectId":  avS(p.ID),
			"name":       avS(labels[i]),
			"status":     avS(status),
			"createdAt":  avS(iso(g.ago(g.jitter(24*time.Hour, p.Age)))),
		}
		ids := []string{p.ID}
		if p.ID == "proj_acme_scraper" && i == 0 {
			// The org's CI key may start sessions in its other project too.
			ids = append(ids, "proj_legacy_crawler")
		}
		it["projectIds"] = avSL(ids...)
		if status == "ACTIVE" {
			it["lastUsedAt"] = avS(iso(g.ago(g.jitter(time.Minute, 6*time.Hour))))
		}
		w.add(data.TableAPIKeys, status, it)
	}
}

func seedContexts(g *gen, w *world, p wcProject) []string {
	var ids []string
	for range 2 + g.intn(3) {
		id := "ctx_" + g.alnum(12)
		created := g.ago(g.jitter(time.Hour, 60*24*time.Hour))
		w.add(data.TableContexts, "CREATED", Item{
			"contextId":  avS(id),
			"projectId":  avS(p.ID),
			"storageKey": avS(p.ID + "/" + id + "/profile.tar.gz"),
			"createdAt":  avS(iso(created)),
			"updatedAt":  avS(iso(created.Add(g.jitter(0, g.now.Sub(created))))),
			"status":     avS("CREATED"),
		})
		ids = append(ids, id)
	}
	return ids
}

// sessionPlan is one session's history, from which its item is derived so
// that timestamps, status and eventHistory always agree.
type sessionPlan struct {
	g         *gen
	id        string
	project   wcProject
	internal  string
	messy     bool // written by the container: status=STOPPED, numeric updatedAt
	created   time.Time
	timeout   time.Duration
	keepAlive bool
	region    string
	context   string
	persist   bool
	// steps are the lifecycle transitions that happened, oldest first.
	steps    []sessionStep
	ip       string
	task     string
	selenium bool
	reason   string // why it failed or timed out
	metadata Item
}

type sessionStep struct {
	status string
	at     time.Time
}

// planSession invents a plausible history ending in internal, with
// expiresAt (createdAt + timeout) still in the future: DynamoDB Local honours
// TTL and would delete anything already expired within a minute.
func planSession(g *gen, p wcProject, internal string, contexts []string) *sessionPlan {
	s := newSessionPlan(g, p, internal, contexts)
	// How long ago it was created depends on how far it got.
	maxAge := s.timeout - 2*time.Minute
	var age time.Duration
	switch s.internal {
	case "CREATING":
		age = g.jitter(time.Second, 4*time.Second)
	case "PROVISIONING":
		age = g.jitter(5*time.Second, 40*time.Second)
	case "STARTING":
		age = g.jitter(40*time.Second, 90*time.Second)
	default:
		age = g.jitter(3*time.Minute, maxAge)
		if (s.internal == "READY" || s.internal == "ACTIVE") && g.chance(0.3) {
			// Expiring within minutes: the status view's first rows.
			age = s.timeout - g.jitter(2*time.Minute, 9*time.Minute)
		}
	}
	s.created = g.ago(age)
	s.history(g)
	return s
}

// newSessionPlan makes the choices a client makes when it creates a session
// (region, timeout, keepAlive, context, metadata).
func newSessionPlan(g *gen, p wcProject, internal string, contexts []string) *sessionPlan {
	s := &sessionPlan{g: g, id: "sess_" + g.alnum(14), project: p, region: "us-east-1", internal: internal}
	if internal == messyStopped {
		s.internal, s.messy = "STOPPED", true
	}
	if g.chance(0.15) {
		s.region = "eu-west-1"
	}
	s.timeout = p.Timeout
	if g.chance(0.3) {
		s.timeout = pick(g, []time.Duration{15 * time.Minute, 30 * time.Minute, time.Hour, 6 * time.Hour})
	}
	if g.chance(0.15) {
		s.keepAlive, s.timeout = true, 6*time.Hour
	}
	if len(contexts) > 0 && g.chance(0.35) {
		s.context, s.persist = pick(g, contexts), g.chance(0.5)
	}
	if p.Metadata != nil && g.chance(0.8) {
		s.metadata = p.Metadata(g)
	}
	s.selenium = g.chance(0.3)
	return s
}

// history fills steps, ip, task and reason for the target state.
func (s *sessionPlan) history(g *gen) {
	t := s.created
	step := func(status string, after time.Duration) {
		t = t.Add(after)
		if now := g.now; t.After(now) {
			t = now
		}
		s.steps = append(s.steps, sessionStep{status, t})
	}
	step("CREATING", 0)
	if s.internal == "CREATING" {
		return
	}
	step("PROVISIONING", g.jitter(time.Second, 3*time.Second))
	if s.internal == "PROVISIONING" {
		return
	}
	s.task = fmt.Sprintf("arn:aws:ecs:%s:%s:task/wallcrawler-browsers/%s", s.region, demoAccount, g.hex(32))
	if s.internal == "FAILED" && g.chance(0.5) {
		s.reason = pick(g, []string{
			"CannotPullContainerError: pull rate limit exceeded",
			"ResourceInitializationError: unable to pull secrets",
			"Essential container in task exited (exit code 137)",
		})
		step("FAILED", g.jitter(20*time.Second, 70*time.Second))
		return
	}
	if s.internal == "TIMED_OUT" {
		// Seeded time-outs are start-up time-outs: the ready notification
		// never came. (Sessions that run out their whole timeout are made by
		// the simulator and then removed by TTL.)
		s.reason = "ready notification not received within 120s"
		step("STARTING", g.jitter(10*time.Second, 40*time.Second))
		step("TIMED_OUT", 120*time.Second)
		return
	}
	step("STARTING", g.jitter(10*time.Second, 40*time.Second))
	if s.internal == "STARTING" {
		return
	}
	if s.internal == "FAILED" {
		s.reason = pick(g, []string{"chrome exited before DevTools was reachable", "health check failed: /json/version returned 502"})
		step("FAILED", g.jitter(5*time.Second, 30*time.Second))
		return
	}
	s.ip = g.publicIP()
	step("READY", g.jitter(5*time.Second, 20*time.Second))
	if s.internal == "READY" {
		return
	}
	step("ACTIVE", g.jitter(2*time.Second, 60*time.Second))
	if s.internal == "ACTIVE" {
		return
	}
	// Released some time between becoming active and now.
	remaining := g.now.Sub(t)
	step("TERMINATING", g.jitter(remaining/4, remaining*3/4+time.Second))
	if s.internal == "TERMINATING" {
		return
	}
	step("STOPPED", g.jitter(3*time.Second, 20*time.Second))
}

func (s *sessionPlan) last() sessionStep { return s.steps[len(s.steps)-1] }

func (s *sessionPlan) reached(status string) bool {
	for _, st := range s.steps {
		if st.status == status {
			return true
		}
	}
	return false
}

func (s *sessionPlan) expires() time.Time { return s.created.Add(s.timeout) }

// item renders the plan as the row Wallcrawler's services would have left.
func (s *sessionPlan) item() Item {
	g := s.g
	last := s.last()
	signingKey := g.jwt(s.id, s.expires().Unix())
	it := Item{
		"sessionId":          avS(s.id),
		"status":             avS(wcSDKStatus(s.internal)),
		"internalStatus":     avS(s.internal),
		"projectId":          avS(s.project.ID),
		"createdAt":          avS(iso(s.created)),
		"updatedAt":          avS(iso(last.at)),
		"expiresAt":          avN(s.expires().Unix()),
		"keepAlive":          avBool(s.keepAlive),
		"region":             avS(s.region),
		"signingKey":         avS(signingKey),
		"lastEventTimestamp": avS(iso(last.at)),
		"retryCount":         avN(0),
	}
	if s.metadata != nil {
		it["userMetadata"] = avM(s.metadata)
	}
	if s.context != "" {
		it["contextId"] = avS(s.context)
		it["contextPersist"] = avBool(s.persist)
		it["contextStorageKey"] = avS(s.project.ID + "/" + s.context + "/profile.tar.gz")
	}
	if s.task != "" {
		it["ecsTaskArn"] = avS(s.task)
	}
	if s.reached("READY") {
		it["startedAt"] = avS(iso(s.stepAt("READY")))
		it["publicIP"] = avS(s.ip)
		it["connectUrl"] = avS(connectURL(g, s.id, s.ip, signingKey))
		if s.selenium {
			it["seleniumRemoteUrl"] = avS(fmt.Sprintf("https://wc-%s:%s@%s:4444/wd/hub", g.alnum(6), g.alnum(24), s.ip))
		}
	}
	if s.reached("ACTIVE") {
		it["proxyBytes"] = avN(int64(g.between(40_000, 900_000_000)))
		it["avgCpuUsage"] = avNum(fmt.Sprintf("%.2f", 0.05+g.r.Float64()*0.9))
		it["memoryUsage"] = avN(int64(g.between(380, 3900)))
	}
	if s.internal == "FAILED" {
		it["retryCount"] = avN(int64(g.between(1, 2)))
	}
	switch s.internal {
	case "STOPPED", "FAILED", "TIMED_OUT":
		it["endedAt"] = avS(iso(last.at))
	}
	it["eventHistory"] = s.eventHistory()
	if s.messy {
		// The browser container reports its own shutdown: it writes its
		// lifecycle word into status and epoch seconds into updatedAt.
		it["status"] = avS("STOPPED")
		it["updatedAt"] = avN(last.at.Unix())
		if g.chance(0.5) && s.reached("ACTIVE") {
			// ...and sometimes nothing else, leaving internalStatus behind.
			it["internalStatus"] = avS("ACTIVE")
		}
	}
	return it
}

func (s *sessionPlan) stepAt(status string) time.Time {
	for _, st := range s.steps {
		if st.status == status {
			return st.at
		}
	}
	return time.Time{}
}

// connectURL is either the direct-mode URL on the task's own address with the
// signing key in the query, or the gateway URL with a token.
func connectURL(g *gen, id, ip, key string) string {
	if g.chance(0.5) {
		return fmt.Sprintf("wss://%s:9223/cdp?signingKey=%s", ip, key)
	}
	return fmt.Sprintf("wss://connect.wallcrawler.dev/v1/sessions/%s/cdp?token=%s", id, key)
}

// eventHistory renders the steps as the EventBridge envelopes Wallcrawler
// keeps for auditing.
func (s *sessionPlan) eventHistory() types.AttributeValue {
	l := make([]types.AttributeValue, 0, len(s.steps))
	for _, st := range s.steps {
		l = append(l, sessionEvent(s.g, s.id, s.project.ID, s.region, s.task, st.status, st.at, s.reason))
	}
	return avL(l...)
}

// sessionEvent is one eventHistory entry as Wallcrawler's code appends it
// (its SessionEvent: eventType, timestamp, source, detail): who reported
// the transition, when (RFC 3339, the same text as lastEventTimestamp),
// and what it says.
func sessionEvent(g *gen, id, project, region, task, status string, at time.Time, reason string) types.AttributeValue {
	source, eventType := "wallcrawler.ecs-task-processor", "SessionStateChanged"
	switch status {
	case "CREATING":
		source, eventType = "wallcrawler.sessions-create", "SessionCreated"
	case "PROVISIONING", "STARTING":
		source, eventType = "aws.ecs", "ECSTaskStateChange"
	case "READY":
		eventType = "SessionReady"
	case "TERMINATING", "STOPPED":
		source, eventType = "wallcrawler.sdk.sessions-update", "SessionTerminationRequested"
	case "TIMED_OUT":
		source, eventType = "wallcrawler.sessions-create", "SessionTimedOut"
	}
	detail := Item{
		"sessionId":      avS(id),
		"projectId":      avS(project),
		"internalStatus": avS(status),
		"region":         avS(region),
	}
	if reason != "" && (status == "FAILED" || status == "TIMED_OUT") {
		detail["reason"] = avS(reason)
	}
	if task != "" {
		detail["ecsTaskArn"] = avS(task)
	}
	return avM(Item{
		"eventType":     avS(eventType),
		"timestamp":     avS(iso(at)),
		"source":        avS(source),
		"detail":        avM(detail),
		"correlationId": avS(g.uuid()),
	})
}

func init() { registerSeed(10, seedWallcrawler) }
