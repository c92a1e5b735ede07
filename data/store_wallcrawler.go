package data

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// SessionsByProject lists a project's sessions, newest first
// (projectId-createdAt-index, ALL projection: whole items in one call).
func (s *Store) SessionsByProject(ctx context.Context, projectID string, req PageRequest) (Page[Session], error) {
	return queryPage(ctx, s, keyQuery{
		table: TableSessions, index: "projectId-createdAt-index",
		pkValue: S(projectID), newestFirst: true,
	}, req, DecodeSession)
}

// SessionsByStatus lists sessions whose stored `status` equals status,
// soonest expiry first (status-expiresAt-index). The index is KEYS_ONLY, so
// each page is completed with BatchGetItem. The partition value is the
// stored attribute, not the derived SDK status: container-written rows sit
// under STOPPED. Sessions without a numeric expiresAt are not in the index.
func (s *Store) SessionsByStatus(ctx context.Context, status string, req PageRequest) (Page[Session], error) {
	return queryPage(ctx, s, keyQuery{
		table: TableSessions, index: "status-expiresAt-index",
		pkValue: S(status),
	}, req, DecodeSession)
}

// Session reads one session by id (consistent read).
func (s *Store) Session(ctx context.Context, sessionID string) (Session, bool, error) {
	return getRecord(ctx, s, TableSessions, Item{"sessionId": S(sessionID)}, DecodeSession)
}

// Project reads one project by id. The projects table has no index: a
// project is found by its id, or by Projects for several ids. Listing all
// projects needs the explicit ScanTable.
func (s *Store) Project(ctx context.Context, projectID string) (Project, bool, error) {
	return getRecord(ctx, s, TableProjects, Item{"projectId": S(projectID)}, DecodeProject)
}

// Projects reads the given projects with BatchGetItem, in the order of ids;
// ids that do not exist are left out. Next is always nil.
func (s *Store) Projects(ctx context.Context, ids []string) (Page[Project], error) {
	return batchPage(ctx, s, TableProjects, keysFor("projectId", ids), DecodeProject)
}

// APIKeysByProject lists a project's API keys by their primary projectId
// (projectId-index, ALL projection). Keys that merely list the project in
// projectIds are not in this index.
func (s *Store) APIKeysByProject(ctx context.Context, projectID string, req PageRequest) (Page[APIKey], error) {
	return queryPage(ctx, s, keyQuery{
		table: TableAPIKeys, index: "projectId-index", pkValue: S(projectID),
	}, req, DecodeAPIKey)
}

// BrowserContext reads one browser context by id (consistent read).
func (s *Store) BrowserContext(ctx context.Context, contextID string) (BrowserContext, bool, error) {
	return getRecord(ctx, s, TableContexts, Item{"contextId": S(contextID)}, DecodeBrowserContext)
}

// BrowserContexts reads the given contexts with BatchGetItem, in the order of
// ids; ids that do not exist are left out. Next is always nil.
func (s *Store) BrowserContexts(ctx context.Context, ids []string) (Page[BrowserContext], error) {
	return batchPage(ctx, s, TableContexts, keysFor("contextId", ids), DecodeBrowserContext)
}

// ContextsByProject lists the browser contexts a project's sessions use.
// The contexts table has no projectId index, and a Scan is never implicit,
// so this walks the project's sessions (newest first, projecting only
// contextId) and reads the contexts they name with BatchGetItem. It reads
// session pages until it has req.Limit distinct contexts or the sessions
// run out (at most 10 session pages a call); Next is a cursor into the sessions. Consequences, documented in
// docs/SCHEMAS.md: contexts no live session references are not listed, and a
// context used by sessions on several pages can appear on more than one page
// (dedupe by ID). Contexts whose own projectId names another project are
// kept (they are what the sessions use) and are visible by their ProjectID.
func (s *Store) ContextsByProject(ctx context.Context, projectID string, req PageRequest) (Page[BrowserContext], error) {
	limit := req.Limit
	if limit <= 0 {
		limit = DefaultPageSize
	}
	var out Page[BrowserContext]
	var ids []string
	seen := map[string]bool{}
	cursor := req.Cursor
	for pages := 1; ; pages++ {
		// Ask for no more sessions than contexts still wanted, so a page
		// never holds more than limit contexts and the sessions cursor never
		// skips one. Most sessions carry no context, hence the loop.
		items, next, used, err := s.queryItems(ctx, keyQuery{
			table: TableSessions, index: "projectId-createdAt-index",
			pkValue: S(projectID), newestFirst: true,
			only: []string{"contextId"},
		}, PageRequest{Limit: limit - int32(len(ids)), Cursor: cursor})
		out.Consumed += used
		if err != nil {
			return out, err
		}
		for _, it := range items {
			if v, ok := it["contextId"].(*types.AttributeValueMemberS); ok && v.Value != "" && !seen[v.Value] {
				seen[v.Value] = true
				ids = append(ids, v.Value)
			}
		}
		cursor = next
		if cursor == nil || int32(len(ids)) >= limit || pages >= contextScanPages {
			break
		}
	}
	got, err := s.BrowserContexts(ctx, ids)
	out.Consumed += got.Consumed
	if err != nil {
		return out, err
	}
	out.Items, out.Next = got.Items, cursor
	return out, nil
}

// contextScanPages bounds how many session pages one ContextsByProject call
// reads, so a project with many context-less sessions costs a bounded amount
// per page (the page comes back short, with a Next).
const contextScanPages = 10

func keysFor(attr string, ids []string) []Item {
	keys := make([]Item, len(ids))
	for i, id := range ids {
		keys[i] = Item{attr: S(id)}
	}
	return keys
}
