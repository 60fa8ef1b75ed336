package sizing

import (
	"errors"
	"regexp"
	"strings"
	"testing"
)

// The table holds what the docs say, each value with its page and the page's date.
func TestThePlansTable(t *testing.T) {
	tests := []struct {
		tier                 Tier
		maxAuto, maxFixed    CU
		suspend              Suspend
		price, includedHours float64
	}{
		{Free, 2, 2, SuspendFixed, 0, 100},
		{Launch, 16, 16, SuspendFixedOrNever, 0.106, 0},
		{Scale, 16, 56, SuspendAny, 0.222, 0},
		{Paid, 0, 0, SuspendAny, 0, 0},
	}
	for _, tt := range tests {
		p, ok := PlanOf(tt.tier)
		if !ok {
			t.Fatalf("no row for %q", tt.tier)
		}
		if p.MaxAutoscalingCU != tt.maxAuto || p.MaxFixedCU != tt.maxFixed || p.Suspend != tt.suspend ||
			p.USDPerCUHour != tt.price || p.IncludedCUHoursPerProject != tt.includedHours {
			t.Errorf("%s: %+v", tt.tier, p)
		}
		price, priced := p.Price()
		if priced != (tt.price > 0) || price != tt.price {
			t.Errorf("%s: Price() = %g, %v", tt.tier, price, priced)
		}
		if tt.tier != Paid && len(p.Sources) == 0 {
			t.Errorf("%s has no source", tt.tier)
		}
	}
	if len(Tiers) != len(plans) {
		t.Errorf("Tiers lists %d tiers, the table has %d rows", len(Tiers), len(plans))
	}
	if _, ok := PlanOf("pro"); ok {
		t.Error(`PlanOf("pro") found a row`)
	}
	date := regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	for _, s := range []Source{PlansPage, LimitsPage, ComputesPage} {
		if !strings.HasPrefix(s.URL, "https://neon.com/docs/") || !date.MatchString(s.Updated) {
			t.Errorf("source %+v", s)
		}
	}
	if PricesUpdated != PlansPage.Updated {
		t.Errorf("prices dated %s, the plans page %s", PricesUpdated, PlansPage.Updated)
	}
}

func TestCheckSuspend(t *testing.T) {
	const never, def = -1, 0
	tests := []struct {
		name     string
		min, max CU
		seconds  int64
		tier     Tier
		summary  string
	}{
		{"16 CU scales to zero", 16, 16, 300, Paid, ""},
		{"8-16 CU scales to zero", 8, 16, 60, Scale, ""},
		{"18 CU with a timeout", 18, 18, 300, Paid, "Scale to zero above 16 CU"},
		{"56 CU with a timeout on Scale", 56, 56, 604800, Scale, "Scale to zero above 16 CU"},
		{"18 CU never", 18, 18, never, Scale, ""},
		{"18 CU default", 18, 18, def, Scale, ""},
		{"free: default", 0.25, 2, def, Free, ""},
		{"free: 5 minutes written", 0.25, 2, 300, Free, ""},
		{"free: a minute", 0.25, 2, 60, Free, "Suspend timeout on the Free plan"},
		{"free: never", 0.25, 2, never, Free, "Suspend timeout on the Free plan"},
		{"launch: 5 minutes", 1, 4, 300, Launch, ""},
		{"launch: never", 1, 4, never, Launch, ""},
		{"launch: a minute", 1, 4, 60, Launch, "Suspend timeout on the Launch plan"},
		{"launch: an hour", 1, 4, 3600, Launch, "Suspend timeout on the Launch plan"},
		{"scale: a minute", 1, 4, 60, Scale, ""},
		{"scale: a week", 1, 4, 604800, Scale, ""},
		{"paid: a minute", 1, 4, 60, Paid, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckSuspend(tt.min, tt.max, tt.seconds, tt.tier)
			var se *Error
			switch {
			case tt.summary == "" && err != nil:
				t.Fatalf("got %v, want nil", err)
			case tt.summary != "" && !errors.As(err, &se):
				t.Fatalf("got %v, want %q", err, tt.summary)
			case tt.summary != "" && se.Summary != tt.summary:
				t.Errorf("summary %q, want %q", se.Summary, tt.summary)
			}
		})
	}
}
