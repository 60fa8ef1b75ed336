package sizing

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAllowed(t *testing.T) {
	tests := []struct {
		cu   CU
		want bool
	}{
		{math.Inf(-1), false}, {-1, false}, {0, false}, {0.125, false},
		{0.25, true}, {0.3, false}, {0.5, true}, {0.75, false},
		{1, true}, {1.5, false}, {2, true}, {15, true}, {16, true},
		{16.5, false}, {17, false}, {18, true}, {19, false}, {20, true},
		{38, true}, {39, false}, {55, false}, {56, true}, {57, false}, {58, false},
		{math.Inf(1), false}, {math.NaN(), false},
	}
	for _, tt := range tests {
		if got := Allowed(tt.cu); got != tt.want {
			t.Errorf("Allowed(%g) = %v, want %v", tt.cu, got, tt.want)
		}
		if err := CheckSize(tt.cu); (err == nil) != tt.want {
			t.Errorf("CheckSize(%g) = %v, want allowed=%v", tt.cu, err, tt.want)
		}
	}
}

func TestSizesListsExactlyTheAllowedSizes(t *testing.T) {
	sizes := Sizes()
	// 0.25 and 0.5, 1..16, and the 20 even sizes 18..56.
	if len(sizes) != 2+16+20 {
		t.Errorf("%d sizes, want 38: %v", len(sizes), sizes)
	}
	listed := map[CU]bool{}
	for i, s := range sizes {
		if i > 0 && s <= sizes[i-1] {
			t.Errorf("not ascending at %d: %g after %g", i, s, sizes[i-1])
		}
		listed[s] = true
	}
	// Every quarter CU from -1 to 60: allowed exactly when listed.
	for q := -4; q <= 240; q++ {
		cu := CU(q) / 4
		if Allowed(cu) != listed[cu] {
			t.Errorf("%g: Allowed = %v but listed = %v", cu, Allowed(cu), listed[cu])
		}
	}
	if sizes[0] != SmallestCU || sizes[len(sizes)-1] != MaxFixedCU {
		t.Errorf("sizes run from %g to %g, want %g to %g", sizes[0], sizes[len(sizes)-1], SmallestCU, MaxFixedCU)
	}
}

func TestNearest(t *testing.T) {
	tests := []struct {
		cu           CU
		below, above CU
	}{
		{0.1, 0, 0.25},
		{0.3, 0.25, 0.5},
		{0.75, 0.5, 1},
		{3.5, 3, 4},
		{17, 16, 18},
		{19, 18, 20},
		{57, 56, 0},
		{16, 15, 18}, // an allowed size gets its neighbours, skipping 17
	}
	for _, tt := range tests {
		below, above := Nearest(tt.cu)
		if below != tt.below || above != tt.above {
			t.Errorf("Nearest(%g) = %g, %g; want %g, %g", tt.cu, below, above, tt.below, tt.above)
		}
	}
}

func TestCheckRange(t *testing.T) {
	tests := []struct {
		name     string
		min, max CU
		tier     Tier
		summary  string   // "" when the size is accepted
		detail   []string // the detail must say these
	}{
		{"smallest fixed", 0.25, 0.25, Paid, "", nil},
		{"widest autoscaling: 8 CU", 8, 16, Paid, "", nil},
		{"8 CU from the smallest", 1, 9, Paid, "", nil},
		{"8.5 CU is too wide", 0.5, 9, Paid, "Autoscaling range above 8 CU", []string{"spans 8.5", "min_cu >= 1", "max_cu <= 8"}},
		{"8.75 CU is too wide", 0.25, 9, Paid, "Autoscaling range above 8 CU", []string{"spans 8.75"}},
		{"range rule on every plan", 0.25, 16, Scale, "Autoscaling range above 8 CU", []string{"min_cu >= 8", "max_cu <= 8"}},
		{"fixed 16", 16, 16, Paid, "", nil},
		{"fixed 18", 18, 18, Paid, "", nil},
		{"largest fixed", 56, 56, Paid, "", nil},
		{"fixed 17 is not a size", 17, 17, Paid, "Unsupported compute size", []string{"17 CU", "nearest are 16 and 18"}},
		{"fixed 19 is not a size", 19, 19, Paid, "Unsupported compute size", []string{"nearest are 18 and 20"}},
		{"fixed 57 is too large", 57, 57, Paid, "Unsupported compute size", []string{"largest is 56"}},
		{"below the smallest", 0.1, 1, Paid, "Unsupported compute size", []string{"0.1 CU", "smallest is 0.25"}},
		{"fraction", 0.3, 1, Paid, "Unsupported compute size", []string{"nearest are 0.25 and 0.5"}},
		{"max not a size", 1, 17, Paid, "Unsupported compute size", []string{"17 CU"}},
		{"min above max", 4, 2, Paid, "Minimum above maximum", []string{"min_cu 4", "max_cu 2", "size = 4"}},
		{"min above max, both large", 20, 18, Paid, "Minimum above maximum", nil},
		{"autoscaling to 18", 1, 18, Paid, "Autoscaling above 16 CU", []string{"max_cu <= 16", "size = 18"}},
		{"autoscaling between large sizes", 18, 20, Paid, "Autoscaling above 16 CU", nil},
		{"free: 2 fixed", 2, 2, Free, "", nil},
		{"free: up to 2", 0.25, 2, Free, "", nil},
		{"free: 3 fixed", 3, 3, Free, "Size above the Free plan's limit", []string{"computes of up to 2 CU (8 GB RAM)", "3 CU needs the Launch or Scale plan", `("launch" or "scale")`}},
		{"free: up to 3", 0.25, 3, Free, "Size above the Free plan's limit", []string{"autoscaling up to 2 CU"}},
		{"launch: 16 fixed", 16, 16, Launch, "", nil},
		{"launch: up to 16", 8, 16, Launch, "", nil},
		{"launch: 18 fixed", 18, 18, Launch, "Size above the Launch plan's limit", []string{"up to 16 CU (64 GB RAM)", "18 CU needs the Scale plan", `("scale")`}},
		{"scale: 56 fixed", 56, 56, Scale, "", nil},
		{"scale: up to 16", 8, 16, Scale, "", nil},
		{"paid: 56 fixed", 56, 56, Paid, "", nil},
		{"free: 17 is not a size on any plan", 17, 17, Free, "Unsupported compute size", nil},
		{"paid: 3 fixed", 3, 3, Paid, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckRange(tt.min, tt.max, tt.tier)
			if tt.summary == "" {
				if err != nil {
					t.Fatalf("CheckRange(%g, %g, %s) = %v, want nil", tt.min, tt.max, tt.tier, err)
				}
				return
			}
			var se *Error
			if !errors.As(err, &se) {
				t.Fatalf("CheckRange(%g, %g, %s) = %v, want a *sizing.Error", tt.min, tt.max, tt.tier, err)
			}
			if se.Summary != tt.summary {
				t.Errorf("summary %q, want %q (detail: %s)", se.Summary, tt.summary, se.Detail)
			}
			for _, s := range tt.detail {
				if !strings.Contains(se.Detail, s) {
					t.Errorf("detail %q lacks %q", se.Detail, s)
				}
			}
			if err.Error() != se.Summary+": "+se.Detail {
				t.Errorf("Error() = %q", err.Error())
			}
		})
	}
}

func TestResourcesOfOneSize(t *testing.T) {
	tests := []struct {
		cu            CU
		ram, lfc      float64
		shared        bool
		tempDisk      float64
		conns         int
		connsAreKnown bool
	}{
		{0.25, 1, 0.75, true, 20, 112, true},
		{0.5, 2, 1.5, true, 20, 225, true},
		{1, 4, 3, false, 20, 450, true},
		{2, 8, 6, false, 30, 901, true},
		{3, 12, 9, false, 45, 1351, true},
		{4, 16, 12, false, 60, 1802, true},
		{5, 20, 15, false, 75, 2253, true},
		{6, 24, 18, false, 90, 2703, true},
		{7, 28, 21, false, 105, 3154, true},
		{8, 32, 24, false, 120, 3604, true},
		{9, 36, 27, false, 135, 4000, true},
		{16, 64, 48, false, 240, 4000, true},
		{18, 72, 54, false, 270, 4000, true},
		{38, 152, 114, false, 570, 4000, true},
		{40, 160, 120, false, 600, 0, false}, // above 38 CU the service publishes no number
		{56, 224, 168, false, 840, 0, false},
	}
	for _, tt := range tests {
		if got := VCPU(tt.cu); got != tt.cu {
			t.Errorf("VCPU(%g) = %g", tt.cu, got)
		}
		if got := RAMGB(tt.cu); got != tt.ram {
			t.Errorf("RAMGB(%g) = %g, want %g", tt.cu, got, tt.ram)
		}
		if got := LFCGB(tt.cu); got != tt.lfc {
			t.Errorf("LFCGB(%g) = %g, want %g", tt.cu, got, tt.lfc)
		}
		if got := Shared(tt.cu); got != tt.shared {
			t.Errorf("Shared(%g) = %v, want %v", tt.cu, got, tt.shared)
		}
		if got := TempDiskGiB(tt.cu); got != tt.tempDisk {
			t.Errorf("TempDiskGiB(%g) = %g, want %g", tt.cu, got, tt.tempDisk)
		}
		n, ok := MaxConnections(tt.cu)
		if n != tt.conns || ok != tt.connsAreKnown {
			t.Errorf("MaxConnections(%g) = %d, %v; want %d, %v", tt.cu, n, ok, tt.conns, tt.connsAreKnown)
		}
	}
	// A size that does not exist has no published max_connections either.
	for _, cu := range []CU{0.3, 17, 37, 57} {
		if n, ok := MaxConnections(cu); ok {
			t.Errorf("MaxConnections(%g) = %d, true; want not known", cu, n)
		}
	}
}

func TestDescribe(t *testing.T) {
	got := Describe(Size{Min: 0.25, Max: 4})
	want := Resources{
		Size:    Size{Min: 0.25, Max: 4},
		VCPUMin: 0.25, VCPUMax: 4,
		RAMMinGB: 1, RAMMaxGB: 16,
		LFCMinGB: 0.75, LFCMaxGB: 12,
		TempDiskGiB:            60, // from the maximum size
		Shared:                 true,
		ConnMin:                112,
		ConnMax:                1802,
		ConnKnown:              true,
		ConnectionsApproximate: true,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Describe(0.25-4) differs (-want +got):\n%s", diff)
	}
	if fixed := Describe(Size{Min: 2, Max: 2}); fixed.ConnectionsApproximate || !fixed.Size.Fixed() {
		t.Errorf("a fixed size is described as autoscaling: %+v", fixed)
	}
}

func TestResourcesReadAsAPersonSaysThem(t *testing.T) {
	tests := []struct {
		min, max     CU
		line, extras string
	}{
		{0.25, 4, "0.25-4 CU autoscaling, 1-16 GB RAM, up to 112-1802 connections", "LFC 0.75-12 GB, temp disk 60 GiB"},
		{0.25, 16, "0.25-16 CU autoscaling, 1-64 GB RAM, up to 112-4000 connections", "LFC 0.75-48 GB, temp disk 240 GiB"},
		{1, 2, "1-2 CU autoscaling, 4-8 GB RAM, up to 450-901 connections", "LFC 3-6 GB, temp disk 30 GiB"},
		{0.25, 0.25, "0.25 CU fixed, 1 GB RAM (shared), 112 connections", "LFC 0.75 GB, temp disk 20 GiB"},
		{2, 2, "2 CU fixed, 8 GB RAM, 901 connections", "LFC 6 GB, temp disk 30 GiB"},
		{38, 38, "38 CU fixed, 152 GB RAM, 4000 connections", "LFC 114 GB, temp disk 570 GiB"},
		{40, 40, "40 CU fixed, 160 GB RAM, connections not published above 38 CU", "LFC 120 GB, temp disk 600 GiB"},
		// Sizes the checks refuse, as live data could still hold them: no number is made up.
		{16, 40, "16-40 CU autoscaling, 64-160 GB RAM, connections not published above 38 CU", "LFC 48-120 GB, temp disk 600 GiB"},
		{17, 17, "17 CU fixed, 68 GB RAM, connections not published for this size", "LFC 51 GB, temp disk 255 GiB"},
		{0.3, 2, "0.3-2 CU autoscaling, 1.2-8 GB RAM, connections not published for this size", "LFC 0.9-6 GB, temp disk 30 GiB"},
	}
	for _, tt := range tests {
		r := Describe(Size{Min: tt.min, Max: tt.max})
		if got := r.String(); got != tt.line {
			t.Errorf("%g-%g: String() = %q, want %q", tt.min, tt.max, got, tt.line)
		}
		if got := r.Extra(); got != tt.extras {
			t.Errorf("%g-%g: Extra() = %q, want %q", tt.min, tt.max, got, tt.extras)
		}
	}
}

func TestFormat(t *testing.T) {
	for cu, want := range map[CU]string{
		0.25: "0.25", 0.5: "0.5", 2: "2", 18: "18", 56: "56", 0.125: "0.125", 1802: "1802",
		3 * 0.3: "0.9", math.Inf(1): "+Inf",
	} {
		if got := Format(cu); got != want {
			t.Errorf("Format(%v) = %q, want %q", cu, got, want)
		}
	}
}
