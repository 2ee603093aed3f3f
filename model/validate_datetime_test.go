package model

import (
	"fmt"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// TestPlainDateTimeImpliesRFC3339: the fast path of isDateTime accepts only
// what time.Parse does with the RFC 3339 layout, dates that do not exist and
// leap years included, and accepts the common timestamps.
func TestPlainDateTimeImpliesRFC3339(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := fmt.Sprintf("%04d-%02d-%02dT%02d:%02d:%02dZ",
			rapid.SampledFrom([]int{0, 1, 1900, 1999, 2000, 2024, 2025, 2100, 2400, 9999}).Draw(t, "year"),
			rapid.IntRange(0, 13).Draw(t, "month"), rapid.IntRange(0, 32).Draw(t, "day"),
			rapid.IntRange(0, 25).Draw(t, "hour"), rapid.IntRange(0, 61).Draw(t, "minute"), rapid.IntRange(0, 61).Draw(t, "second"))
		if rapid.IntRange(0, 4).Draw(t, "mangle") == 0 {
			b := []byte(s)
			b[rapid.IntRange(0, len(b)-1).Draw(t, "at")] = rapid.SampledFrom([]byte("0-:TtZz x")).Draw(t, "byte")
			s = string(b)
		}
		_, err := time.Parse(time.RFC3339, s)
		if plainDateTime(s) && err != nil {
			t.Fatalf("%q: fast path accepts what time.Parse rejects: %v", s, err)
		}
		if plainDateTime(s) != plainDateTime([]byte(s)) {
			t.Fatalf("%q: differs between string and []byte", s)
		}
	})
	for _, s := range []string{"2025-08-29T01:31:29Z", "2024-02-29T00:00:00Z", "2000-02-29T23:59:59Z"} {
		if !plainDateTime(s) {
			t.Errorf("%q: fast path declines a plain timestamp", s)
		}
	}
	for _, s := range []string{"2025-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2025-04-31T00:00:00Z", "2025-01-01T24:00:00Z", "2025-01-01T00:00:60Z"} {
		if plainDateTime(s) {
			t.Errorf("%q: fast path accepts it", s)
		}
	}
}
