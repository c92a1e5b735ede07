package views

import (
	"bytes"
	"compress/flate"
	"io"
	"sync"

	"opsdeck/data"
)

// The raw items of a list's rows are kept in little memory. The table
// already has everything it draws (cells, sort keys); a raw item is needed
// for one row at a time — the detail view, a copy, an action, a live-tail
// check — so it can be stored compressed.
//
// Each page that arrives is encoded (itemcodec.go) and compressed as one
// block: items of one table repeat names, words and ids, so a block of a
// hundred compresses several times better than items one by one. A demo
// session takes about 11 KB as SDK values and a few hundred bytes here,
// which is what keeps 100k rows within the 150 MB budget.
//
// list.items maps each row id to where its item is: in a block, or loose
// (items that changed later — live tail, polling — are few and may change
// again, so they stay as they are). A block is freed when none of its
// items is current any more. The last block read is kept decoded, so
// walking the rows of one page decompresses it once.
type itemBlocks struct {
	loose map[string]data.Item
	packs []pack

	cache struct {
		pack  int
		items []data.Item
	}
}

// itemLoc is where a row's item is: block pack, position pos, or loose.
type itemLoc struct{ pack, pos uint32 }

const looseLoc = ^uint32(0)

type pack struct {
	z    []byte // nil once freed
	live int    // items of this block still current
	// plain: z is the encoded block, not yet compressed. A list's first
	// block is kept so until its second arrives: compressing it is most of
	// the work between a first page's answer and its rows on screen
	// (BenchmarkFirstPage), and one page uncompressed is under a megabyte.
	plain bool
}

// resetItems drops every item (a new scope or a fresh first page).
func (l *list) resetItems(capacity int) {
	l.items = make(map[string]itemLoc, capacity)
	l.blocks = itemBlocks{loose: map[string]data.Item{}}
	l.texts = cellTexts{}
	l.blocks.cache.pack = -1
	l.attrs = nil
}

// getItem returns the raw item of the row with this id.
func (l *list) getItem(id string) (data.Item, bool) {
	loc, ok := l.items[id]
	if !ok {
		return nil, false
	}
	if loc.pos == looseLoc {
		it, ok := l.blocks.loose[id]
		return it, ok
	}
	items := l.blocks.unpack(int(loc.pack))
	if int(loc.pos) >= len(items) || items[loc.pos] == nil {
		return nil, false
	}
	return items[loc.pos], true
}

// putItem keeps one item as it is (a live change), replacing any older one.
// Past looseMax loose items they are packed into a block together, so a
// busy live tail cannot bring back the memory the blocks saved.
func (l *list) putItem(id string, it data.Item) {
	l.forgetAttrs(id)
	l.keepLoose(id, it)
	if len(l.blocks.loose) >= looseMax {
		ids := make([]string, 0, len(l.blocks.loose))
		items := make([]data.Item, 0, len(l.blocks.loose))
		for id, it := range l.blocks.loose {
			ids, items = append(ids, id), append(items, it)
		}
		l.putPage(ids, items)
	}
}

const looseMax = 1024

func (l *list) keepLoose(id string, it data.Item) {
	l.forgetItem(id)
	l.items[id] = itemLoc{pos: looseLoc}
	l.blocks.loose[id] = it
}

// dropItem forgets the item of this row id, if any.
func (l *list) dropItem(id string) {
	l.forgetAttrs(id)
	l.forgetItem(id)
	delete(l.items, id)
}

// putPage stores a page of items under their row ids (ids[i] ↔ items[i])
// as one compressed block. A later id replaces an earlier one, within the
// page too. Items the codec cannot encode are kept loose, never dropped.
func (l *list) putPage(ids []string, items []data.Item) {
	packer.mu.Lock()
	defer packer.mu.Unlock()
	raw := packer.raw[:0]
	kept := make([]string, 0, len(ids))
	for i, it := range items {
		next, ok := appendItem(raw, it)
		if !ok {
			l.keepLoose(ids[i], it) // not putItem: that may pack, i.e. come back here
			continue
		}
		raw = next
		kept = append(kept, ids[i])
	}
	if cap(raw) <= packerKeepMax {
		packer.raw = raw
	}
	if len(kept) == 0 {
		return
	}
	for _, id := range ids {
		l.forgetAttrs(id)
	}
	for _, id := range kept {
		l.forgetItem(id) // before the new block exists, so it is never freed here
		delete(l.items, id)
	}
	b := &l.blocks
	p := len(b.packs)
	if p == 0 {
		b.packs = append(b.packs, pack{z: bytes.Clone(raw), plain: true})
	} else {
		if first := &b.packs[0]; first.plain && first.z != nil {
			first.z = packer.compress(first.z)
		}
		b.packs[0].plain = false
		b.packs = append(b.packs, pack{z: packer.compress(raw)})
	}
	for pos, id := range kept {
		if _, dup := l.items[id]; !dup {
			b.packs[p].live++
		}
		l.items[id] = itemLoc{pack: uint32(p), pos: uint32(pos)}
	}
}

// putPacked is putPage for a page packed off the UI goroutine (packPage
// over the same items): only the bookkeeping happens here.
func (l *list) putPacked(ids []string, items []data.Item, pk packed) {
	kept := make([]string, 0, len(ids))
	bad := pk.bad
	for i, id := range ids {
		if len(bad) > 0 && bad[0] == i {
			bad = bad[1:]
			l.keepLoose(id, items[i])
			continue
		}
		kept = append(kept, id)
	}
	if len(kept) == 0 {
		return
	}
	for _, id := range kept {
		l.forgetItem(id)
		delete(l.items, id)
	}
	b := &l.blocks
	p := len(b.packs)
	if p > 0 {
		if first := &b.packs[0]; first.plain && first.z != nil {
			packer.mu.Lock()
			first.z = packer.compress(first.z)
			packer.mu.Unlock()
		}
		b.packs[0].plain = false
	}
	// A page packed plain (a first page) that is not the list's first
	// block is compressed now, as putPage would have.
	z, plain := pk.z, pk.plain && p == 0
	if pk.plain && p > 0 {
		packer.mu.Lock()
		z = packer.compress(z)
		packer.mu.Unlock()
	}
	b.packs = append(b.packs, pack{z: z, plain: plain})
	for pos, id := range kept {
		if _, dup := l.items[id]; !dup {
			b.packs[p].live++
		}
		l.items[id] = itemLoc{pack: uint32(p), pos: uint32(pos)}
	}
}

// forgetItem releases where the item of id was: its loose copy, or its
// place in a block, freeing the block when it held the last current item.
func (l *list) forgetItem(id string) {
	loc, ok := l.items[id]
	if !ok {
		return
	}
	b := &l.blocks
	if loc.pos == looseLoc {
		delete(b.loose, id)
		return
	}
	if int(loc.pack) >= len(b.packs) {
		return
	}
	p := &b.packs[loc.pack]
	if p.live--; p.live <= 0 {
		p.z = nil
		if b.cache.pack == int(loc.pack) {
			b.cache.pack, b.cache.items = -1, nil
		}
	}
}

// unpack decodes block p (cached). A block that cannot be read gives no
// items: its rows stay listed, only their details are unavailable.
func (b *itemBlocks) unpack(p int) []data.Item {
	if b.cache.pack == p && b.cache.items != nil {
		return b.cache.items
	}
	if p < 0 || p >= len(b.packs) || b.packs[p].z == nil {
		return nil
	}
	items := decodeBlock(b.packs[p].z, b.packs[p].plain)
	b.cache.pack, b.cache.items = p, items
	return items
}

// decodeBlock reads a block's items. It uses only its arguments (a block's
// bytes are never changed in place), so a tea.Cmd may call it on a block
// captured earlier (:export).
func decodeBlock(z []byte, plain bool) []data.Item {
	raw, err := z, error(nil)
	if !plain {
		raw, err = decompress(raw)
	}
	var items []data.Item
	if err == nil {
		r := itemReader{b: raw}
		for len(r.b) > 0 && r.err == nil {
			items = append(items, r.item())
		}
		if r.err != nil {
			items = items[:max(len(items)-1, 0)] // the last one was cut short
		}
	}
	return items
}

// packer is the one set of scratch space pages are packed with: the
// encoded page (demo sessions with their event histories come to nearly a
// megabyte a page), the compressed output and the compressor (about a
// megabyte of state). Pages arrive one at a time on the UI goroutine, so
// one set, kept for the life of the program, does; made afresh per page —
// or pooled, which the collector empties when it runs — they were most of
// the garbage of a load-all, and under the soft memory limit the
// collector's work is most of its CPU time (BenchmarkPutPage).
var packer packerState

type packerState struct {
	mu  sync.Mutex
	raw []byte
	out bytes.Buffer
	w   *flate.Writer
}

// packerKeepMax bounds the scratch kept between pages: an unusually large
// page is packed, but its buffer is not held on to.
const packerKeepMax = 4 << 20

var zrPool sync.Pool

// compress deflates raw into an exactly sized block. The caller holds p.mu.
// BestSpeed: with the lists' projected items a block is a fraction of what
// whole items made, and the default level spent four times the CPU for
// 2 % less memory (BenchmarkRows100kMemory/projected: 65.5 → 66.8 MB heap,
// 4.0 → 3.6 s for 100k sessions).
func (p *packerState) compress(raw []byte) []byte {
	if p.w == nil {
		p.w, _ = flate.NewWriter(nil, flate.BestSpeed)
	}
	p.out.Reset()
	p.w.Reset(&p.out)
	_, _ = p.w.Write(raw) // writes to a bytes.Buffer cannot fail
	_ = p.w.Close()
	// Exact size: the block is kept for as long as its rows are.
	z := bytes.Clone(p.out.Bytes())
	if p.out.Cap() > packerKeepMax {
		p.out = bytes.Buffer{}
	}
	return z
}

func decompress(z []byte) ([]byte, error) {
	var r io.ReadCloser
	if v := zrPool.Get(); v != nil {
		r = v.(io.ReadCloser)
		if err := r.(flate.Resetter).Reset(bytes.NewReader(z), nil); err != nil {
			return nil, err
		}
	} else {
		r = flate.NewReader(bytes.NewReader(z))
	}
	defer zrPool.Put(r)
	return io.ReadAll(r)
}

// eachItem calls fn with current items — loose ones, then block by block,
// so each block is decompressed once — until fn returns false. Rows
// without a usable key are skipped (their ids cannot be recomputed).
func (l *list) eachItem(fn func(it data.Item) bool) {
	for _, it := range l.blocks.loose {
		if !fn(it) {
			return
		}
	}
	for p := range l.blocks.packs {
		if l.blocks.packs[p].z == nil {
			continue
		}
		for pos, it := range l.blocks.unpack(p) {
			if l.items[rowID(l.scope.Table, it, -1)] != (itemLoc{pack: uint32(p), pos: uint32(pos)}) {
				continue // replaced by a later version
			}
			if !fn(it) {
				return
			}
		}
	}
}
