package html

import (
	"fmt"
	"math"
	"strings"

	"github.com/setbot/setbot/model"
)

// Sizes of the fallback layout, in SVG user units.
const (
	leafHeight = 34
	header     = 24 // the title band of a compound box
	pad        = 14 // inside a compound box
	gap        = 70 // between sibling boxes, room for an arrow and its label
	charWidth  = 7.5
)

// box is a state's place in the fallback layout: nested boxes, as the
// statechart nests its states.
type box struct {
	s          *model.State
	x, y, w, h float64
	kids       []*box
}

// boxLayout places the states of g in nested boxes: the children of a
// compound state in rows that wrap at a width that keeps the box roughly
// square, the regions of a parallel state side by side. It is the layout
// used where Graphviz is not installed or the model is too large for it;
// it does not avoid crossings.
func boxLayout(root *model.State) *box {
	b := measure(root)
	place(b, 0, 0)
	return b
}

func measure(s *model.State) *box {
	b := &box{s: s}
	kids := s.Children // history pseudo-states too: transitions target them
	if len(kids) == 0 {
		b.w = math.Max(56, float64(len([]rune(s.ID)))*charWidth+24)
		if s.Kind == model.History {
			b.w = leafHeight // a small square: "H" or "H*"
		}
		b.h = leafHeight
		return b
	}
	area := 0.0
	for _, k := range kids {
		kb := measure(k)
		b.kids = append(b.kids, kb)
		area += (kb.w + gap) * (kb.h + gap)
	}
	limit := math.Max(320, math.Sqrt(area)*1.4)
	if s.Kind == model.Parallel {
		limit = math.Inf(1) // regions side by side
	}
	x, y, rowH, width := 0.0, 0.0, 0.0, 0.0
	for _, kb := range b.kids {
		if x > 0 && x+kb.w > limit {
			x, y, rowH = 0, y+rowH+gap, 0
		}
		kb.x, kb.y = x, y // relative, made absolute by place
		x += kb.w + gap
		rowH = math.Max(rowH, kb.h)
		width = math.Max(width, x-gap)
	}
	title := float64(len([]rune(s.ID)))*charWidth + 2*pad
	b.w = math.Max(width+2*pad, title)
	b.h = y + rowH + 2*pad + header
	return b
}

// place makes the relative positions of measure absolute.
func place(b *box, x, y float64) {
	b.x, b.y = b.x+x, b.y+y
	for _, k := range b.kids {
		place(k, b.x+pad, b.y+header+pad)
	}
}

// boxSVG draws g with the fallback layout.
func boxSVG(g *graph) string {
	root := boxLayout(g.root)
	at := map[*model.State]*box{}
	var all []*box
	var walk func(b *box)
	walk = func(b *box) {
		at[b.s] = b
		all = append(all, b)
		for _, k := range b.kids {
			walk(k)
		}
	}
	walk(root)
	var sb strings.Builder
	fmt.Fprintf(&sb, `<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="-10 -10 %.0f %.0f" width="%.0f" height="%.0f">`,
		root.w+20, root.h+20, root.w+20, root.h+20)
	fmt.Fprintf(&sb, `<defs><marker id="%sarrow" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z"/></marker></defs>`, g.prefix)
	for _, b := range all[1:] { // the root is the page
		n := g.nodes[b.s]
		fmt.Fprintf(&sb, `<g id="%s" class="%s"><title>%s</title>`, n.id, n.class, esc(b.s.ID))
		switch {
		case len(b.kids) > 0:
			dash := ""
			if b.s.Kind == model.Parallel {
				dash = ` stroke-dasharray="8 4"`
			}
			fmt.Fprintf(&sb, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" rx="10"%s/>`, b.x, b.y, b.w, b.h, dash)
			fmt.Fprintf(&sb, `<text x="%.1f" y="%.1f" class="title">%s</text>`, b.x+pad, b.y+17, esc(n.label))
		default:
			fmt.Fprintf(&sb, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" rx="8"/>`, b.x, b.y, b.w, b.h)
			if b.s.Kind == model.Final {
				fmt.Fprintf(&sb, `<rect class="inner" x="%.1f" y="%.1f" width="%.1f" height="%.1f" rx="6"/>`, b.x+3, b.y+3, b.w-6, b.h-6)
			}
			fmt.Fprintf(&sb, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`, b.x+b.w/2, b.y+b.h/2+4, esc(n.label))
		}
		sb.WriteString(`</g>`)
	}
	pairs := map[[2]*model.State]int{}
	for _, e := range g.edges {
		k := [2]*model.State{e.from, e.to}
		nth := pairs[k]
		pairs[k]++
		from, to := at[e.from], at[e.to]
		if from == nil || to == nil {
			continue // not a state of the drawing (newGraph draws every state)
		}
		d, lx, ly := route(from, to, nth)
		fmt.Fprintf(&sb, `<g id="%s" class="%s"><title>%s</title><path d="%s" marker-end="url(#%sarrow)"/>`, e.id, e.class, esc(e.title), d, g.prefix)
		if e.events != "" { // the whole label is the tooltip: the boxes leave little room
			fmt.Fprintf(&sb, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`, lx, ly, esc(e.events))
		}
		sb.WriteString(`</g>`)
	}
	sb.WriteString(`</svg>`)
	return sb.String()
}

// route is the path of an arrow from a to b (the nth between them) and
// where its label goes: a loop on the right for a self-transition, else a
// curve between the boxes' borders, bent more for each further arrow.
func route(a, b *box, nth int) (string, float64, float64) {
	if a == b {
		x, y := a.x+a.w, a.y+a.h/2
		r := 14 + 8*float64(nth)
		return fmt.Sprintf("M%.1f,%.1f C%.1f,%.1f %.1f,%.1f %.1f,%.1f", x, y-8, x+2*r, y-2*r, x+2*r, y+2*r, x, y+8), x + 2*r, y - r
	}
	ax, ay := a.x+a.w/2, a.y+a.h/2
	bx, by := b.x+b.w/2, b.y+b.h/2
	if inside(a, b) || inside(b, a) { // to or from an enclosing box: its title band
		if inside(a, b) {
			bx, by = b.x+b.w-pad, b.y+header/2
		} else {
			ax, ay = a.x+a.w-pad, a.y+header/2
		}
	}
	sx, sy := clip(a, ax, ay, bx, by)
	tx, ty := clip(b, bx, by, ax, ay)
	dx, dy := tx-sx, ty-sy
	l := math.Max(math.Hypot(dx, dy), 1)
	bend := 18 + 22*float64(nth)
	cx, cy := (sx+tx)/2-dy/l*bend, (sy+ty)/2+dx/l*bend
	lx, ly := (sx+2*cx+tx)/4, (sy+2*cy+ty)/4
	return fmt.Sprintf("M%.1f,%.1f Q%.1f,%.1f %.1f,%.1f", sx, sy, cx, cy, tx, ty), lx, ly - 3
}

// inside reports whether a lies within b.
func inside(a, b *box) bool {
	return a.x >= b.x && a.y >= b.y && a.x+a.w <= b.x+b.w && a.y+a.h <= b.y+b.h
}

// clip moves (x, y), a point in b, along the line towards (ox, oy) to b's
// border; a point outside b stays where it is.
func clip(b *box, x, y, ox, oy float64) (float64, float64) {
	if ox >= b.x && ox <= b.x+b.w && oy >= b.y && oy <= b.y+b.h {
		return x, y // the other end is within b: it leaves from where it is
	}
	dx, dy := ox-x, oy-y
	t := 1.0
	if dx > 0 {
		t = math.Min(t, (b.x+b.w-x)/dx)
	} else if dx < 0 {
		t = math.Min(t, (b.x-x)/dx)
	}
	if dy > 0 {
		t = math.Min(t, (b.y+b.h-y)/dy)
	} else if dy < 0 {
		t = math.Min(t, (b.y-y)/dy)
	}
	return x + dx*t, y + dy*t
}

var esc = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace
