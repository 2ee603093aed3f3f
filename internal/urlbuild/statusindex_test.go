package urlbuild

import (
	"fmt"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// TestParentStatusesAgree holds the status.parents index of a route with
// many entries to looking through all of them: the same acceptance for
// every parentRef, entries of one parentRef repeated or missing, fresh,
// stale or refused.
func TestParentStatusesAgree(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		route := &gwv1.HTTPRoute{}
		route.Namespace, route.Generation = "team", int64(rapid.IntRange(1, 3).Draw(t, "generation"))
		names := rapid.IntRange(1, 40).Draw(t, "gateways")
		ref := func(label string) gwv1.ParentReference {
			r := gwv1.ParentReference{Name: gwv1.ObjectName(fmt.Sprintf("g%d", rapid.IntRange(0, names-1).Draw(t, label+" name")))}
			if rapid.Bool().Draw(t, label+" section?") {
				s := gwv1.SectionName("s")
				r.SectionName = &s
			}
			return r
		}
		for i := range rapid.IntRange(0, 60).Draw(t, "statuses") {
			st := gwv1.RouteParentStatus{ParentRef: ref(fmt.Sprint("status ", i)), ControllerName: "example.com/c"}
			if rapid.IntRange(0, 4).Draw(t, "condition?") > 0 {
				st.Conditions = []metav1.Condition{{
					Type:               string(gwv1.RouteConditionAccepted),
					Status:             rapid.SampledFrom([]metav1.ConditionStatus{metav1.ConditionTrue, metav1.ConditionFalse, metav1.ConditionUnknown}).Draw(t, "status"),
					ObservedGeneration: int64(rapid.IntRange(0, 3).Draw(t, "observed")),
					Reason:             "R", Message: "m",
				}}
			}
			route.Status.Parents = append(route.Status.Parents, st)
		}
		var ps parentStatuses
		for i := range rapid.IntRange(1, 20).Draw(t, "parentRefs") {
			key := parentKeyOf(ref(fmt.Sprint("parentRef ", i)), route.Namespace)
			if got, want := ps.acceptance(route, key), routeAcceptance(route, key, nil, false); got != want {
				t.Fatalf("%+v: indexed %+v, looked through %+v", key, got, want)
			}
		}
	})
}

// BenchmarkManyStatusParents: a route naming n Gateways, each with its
// status entry; finding every parentRef's entry is linear in n (the index),
// not n squared.
func BenchmarkManyStatusParents(b *testing.B) {
	for _, n := range []int{300, 1200, 4800} {
		route := &gwv1.HTTPRoute{}
		route.Namespace = "team"
		var keys []parentKey
		for i := range n {
			r := gwv1.ParentReference{Name: gwv1.ObjectName(fmt.Sprintf("g%d", i))}
			route.Status.Parents = append(route.Status.Parents, gwv1.RouteParentStatus{ParentRef: r, Conditions: []metav1.Condition{
				{Type: string(gwv1.RouteConditionAccepted), Status: metav1.ConditionTrue}}})
			keys = append(keys, parentKeyOf(r, route.Namespace))
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				var ps parentStatuses
				for _, k := range keys {
					if !ps.acceptance(route, k).accepted {
						b.Fatal("not accepted")
					}
				}
			}
		})
	}
}
