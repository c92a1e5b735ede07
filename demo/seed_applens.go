package demo

import (
	"fmt"
	"time"

	"opsdeck/data"
)

// StuckAfter is how old a PROCESSING run's updatedAt must be before the demo
// (and the console's "mark failed" action) considers it stuck.
const StuckAfter = 30 * time.Minute

// graphUser is one AppLens user and the runs it starts with.
type graphUser struct {
	ID     string
	Env    string // the environment most of its runs use
	States []stateCount
}

var graphUsers = []graphUser{
	{ID: "12345", Env: "prod", States: []stateCount{{"COMPLETE", 6}, {"FAILED", 1}, {"PROCESSING", 1}, {stuckProcessing, 1}, {"UPLOADED", 1}}},
	{ID: "48213", Env: "prod", States: []stateCount{{"COMPLETE", 7}, {"FAILED", 2}, {stuckProcessing, 2}, {"UPLOADED", 1}}},
	{ID: "77001", Env: "dev", States: []stateCount{{"COMPLETE", 5}, {"FAILED", 2}, {"PROCESSING", 1}}},
	{ID: "90210", Env: "dev", States: []stateCount{{"COMPLETE", 4}, {"UPLOADED", 2}}},
}

const stuckProcessing = "PROCESSING*"

// graphRunExample is the example item of the AppLens seed, verbatim. Note it
// has no GSI1PK/GSI1SK, exactly as the seed shows it, so it is not in GSI1.
func graphRunExample() Item {
	return Item{
		"PK":                   avS("USER#12345"),
		"SK":                   avS("RUN#2026-02-22T19:12:11Z#c8a91e"),
		"runId":                avS("c8a91e"),
		"status":               avS("COMPLETE"),
		"environment":          avS("prod"),
		"createdAt":            avS("2026-02-22T19:12:11Z"),
		"updatedAt":            avS("2026-02-22T19:13:02Z"),
		"graphS3Key":           avS("graphs/prod/12345/c8a91e/graph.json"),
		"iacS3Key":             avS("uploads/prod/12345/main.tf.json"),
		"analysisS3Key":        avS("reports/prod/12345/c8a91e/risk.json"),
		"nodeCount":            avNum("42"),
		"edgeCount":            avNum("67"),
		"internetExposedCount": avNum("2"),
		"datastoreCount":       avNum("4"),
		"graphHash":            avS("sha256:abc123..."),
	}
}

func seedGraphRuns(g *gen, w *world) {
	w.add(data.TableGraphRuns, "COMPLETE", graphRunExample())
	for _, u := range graphUsers {
		w.report.GraphUsers = append(w.report.GraphUsers, u.ID)
		for _, sc := range u.States {
			for range sc.N {
				status := sc.State
				var created, updated time.Time
				switch status {
				case "UPLOADED":
					created = g.ago(g.jitter(10*time.Second, 3*time.Minute))
					updated = created
				case "PROCESSING":
					created = g.ago(g.jitter(2*time.Minute, 8*time.Minute))
					updated = created.Add(g.jitter(2*time.Second, 30*time.Second))
				case stuckProcessing:
					status = "PROCESSING"
					created = g.ago(g.jitter(StuckAfter+10*time.Minute, 9*time.Hour))
					updated = created.Add(g.jitter(2*time.Second, 30*time.Second))
				default:
					created = g.ago(g.jitter(20*time.Minute, 20*24*time.Hour))
					updated = created.Add(g.jitter(20*time.Second, 4*time.Minute))
				}
				env := u.Env
				if g.chance(0.2) {
					env = map[string]string{"prod": "dev", "dev": "prod"}[env]
				}
				w.add(data.TableGraphRuns, status, graphRunItem(g, u.ID, g.hex(6), env, status, created, updated))
			}
		}
	}
	w.report.Defaults.RunsUser = graphUsers[0].ID
}

// graphRunItem builds one run in the given status; what it carries grows
// with the lifecycle (an UPLOADED run has only its IaC file).
func graphRunItem(g *gen, user, runID, env, status string, created, updated time.Time) Item {
	it := Item{
		"PK":          avS("USER#" + user),
		"SK":          avS("RUN#" + iso(created) + "#" + runID),
		"GSI1PK":      avS("RUN#" + runID),
		"GSI1SK":      avS("USER#" + user),
		"runId":       avS(runID),
		"status":      avS(status),
		"environment": avS(env),
		"createdAt":   avS(iso(created)),
		"updatedAt":   avS(iso(updated)),
		"iacS3Key":    avS(fmt.Sprintf("uploads/%s/%s/main.tf.json", env, user)),
	}
	switch status {
	case "COMPLETE":
		completeRun(g, it, user, runID, env)
	case "FAILED":
		it["failureReason"] = avS(pick(g, []string{
			"terraform show -json: unsupported provider schema version",
			"graph builder: cycle detected in module.network",
			"Task timed out after 900.00 seconds",
			"S3 GetObject AccessDenied on uploaded plan",
		}))
	}
	if g.chance(0.5) {
		it["iacCommitSha"] = avS(g.hex(40))
		it["terraformWorkspace"] = avS(pick(g, []string{"default", env, env + "-us-east-1"}))
		it["accountId"] = avS(fmt.Sprintf("%012d", g.r.Int64N(1_000_000_000_000)))
		it["region"] = avS(pick(g, []string{"us-east-1", "us-west-2", "eu-central-1"}))
	}
	return it
}

// completeRun adds what the analysis writes when it finishes.
func completeRun(g *gen, it Item, user, runID, env string) {
	nodes := g.between(8, 400)
	it["graphS3Key"] = avS(fmt.Sprintf("graphs/%s/%s/%s/graph.json", env, user, runID))
	it["analysisS3Key"] = avS(fmt.Sprintf("reports/%s/%s/%s/risk.json", env, user, runID))
	it["nodeCount"] = avN(int64(nodes))
	it["edgeCount"] = avN(int64(nodes + g.between(nodes/4, nodes*2)))
	it["internetExposedCount"] = avN(int64(g.between(0, max(1, nodes/20))))
	it["datastoreCount"] = avN(int64(g.between(0, max(1, nodes/10))))
	it["graphHash"] = avS("sha256:" + g.hex(64))
}

func init() { registerSeed(20, seedGraphRuns) }
