// Package labelsel makes a Kubernetes label selector's matching cost
// independent of the number of values its requirements list.
//
// apimachinery's labels.Requirement looks a label's value up in its value
// list one by one, so a selector whose In or NotIn lists v values costs
// O(v) per object: matching n objects costs O(n × v), quadratic in the
// input when a selector lists many values. Fast answers the same, looking
// values up in a set built once.
package labelsel

import (
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
)

// setThreshold is the number of values from which a requirement's values
// are looked up in a set: below it the list is scanned as quickly.
const setThreshold = 8

// Fast returns a selector equivalent to s (the same answers, the same
// String, Requirements and the rest) whose Matches costs O(1) per In or
// NotIn requirement, whatever the number of values. A nil s is returned
// as is.
func Fast(s labels.Selector) labels.Selector {
	if s == nil {
		return nil
	}
	if _, done := s.(*selector); done {
		return s
	}
	reqs, ok := s.Requirements()
	if !ok {
		return s
	}
	var fast []requirement
	long := false
	for i := range reqs {
		q := requirement{req: reqs[i]}
		switch reqs[i].Operator() {
		case selection.In, selection.NotIn:
			// Bounded by the selector's own values.
			if vs := reqs[i].ValuesUnsorted(); len(vs) >= setThreshold {
				long = true
				q.set = make(map[string]struct{}, len(vs))
				for _, v := range vs {
					q.set[v] = struct{}{}
				}
				q.in = reqs[i].Operator() == selection.In
			}
		}
		fast = append(fast, q)
	}
	if !long {
		return s
	}
	return &selector{Selector: s, reqs: fast}
}

// selector is a labels.Selector whose long In and NotIn requirements look
// values up in a set; every other method is the wrapped selector's.
type selector struct {
	labels.Selector
	reqs []requirement
}

// requirement is one requirement of the selector, with its values as a set
// when they are many.
type requirement struct {
	req labels.Requirement
	set map[string]struct{} // nil: req.Matches
	in  bool                // set holds In's values (else NotIn's)
}

// Matches reports whether ls satisfies every requirement, as the wrapped
// selector's Matches does.
func (s *selector) Matches(ls labels.Labels) bool {
	for i := range s.reqs {
		q := &s.reqs[i]
		if q.set == nil {
			if !q.req.Matches(ls) {
				return false
			}
			continue
		}
		v, has := ls.Lookup(q.req.Key())
		if !has {
			// In needs the key; NotIn is satisfied without it.
			if q.in {
				return false
			}
			continue
		}
		if _, listed := q.set[v]; listed != q.in {
			return false
		}
	}
	return true
}

// DeepCopySelector copies the wrapped selector and keeps it fast.
func (s *selector) DeepCopySelector() labels.Selector {
	return Fast(s.Selector.DeepCopySelector())
}

// Add adds requirements to the wrapped selector and keeps it fast.
func (s *selector) Add(r ...labels.Requirement) labels.Selector {
	return Fast(s.Selector.Add(r...))
}
