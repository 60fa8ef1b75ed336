package sizing

import "fmt"

// maxConnections is the service's table of Postgres max_connections by size (docs/service.md, Sizes);
// from 9 to 38 CU it is 4000. Above 38 CU the service does not say.
var maxConnections = map[CU]int{
	0.25: 112, 0.5: 225, 1: 450, 2: 901, 3: 1351, 4: 1802, 5: 2253, 6: 2703, 7: 3154, 8: 3604,
}

// MaxConnections returns max_connections for a fixed size, and false when the
// service does not publish it (sizes above 38 CU, or a size that is not allowed).
func MaxConnections(cu CU) (int, bool) {
	if !Allowed(cu) {
		return 0, false
	}
	if n, ok := maxConnections[cu]; ok {
		return n, true
	}
	if cu >= 9 && cu <= 38 {
		return 4000, true
	}
	return 0, false
}

// RAMGB is the memory of a compute of this size: 4 GB per CU.
func RAMGB(cu CU) float64 { return 4 * cu }

// VCPU is the number of virtual CPUs: one per CU.
func VCPU(cu CU) float64 { return cu }

// Shared reports whether the size runs on shared compute (0.25 and 0.5 CU).
func Shared(cu CU) bool { return cu < 1 }

// LFCGB is the Local File Cache size: 0.75 GB at 0.25 CU, 1.5 GB at 0.5 CU, then 3 GB per CU
// (75% of RAM).
func LFCGB(cu CU) float64 { return 0.75 * RAMGB(cu) }

// TempDiskGiB is the compute's temporary local disk: the greater of 20 GiB and 15 GiB per
// CU of the maximum size.
func TempDiskGiB(maxCU CU) float64 {
	if d := 15 * maxCU; d > 20 {
		return d
	}
	return 20
}

// Size is a compute's size: fixed when Min == Max, autoscaling otherwise.
type Size struct {
	Min, Max CU
}

// Fixed reports whether the size does not autoscale.
func (s Size) Fixed() bool { return s.Min == s.Max }

// Resources is what a size gives, as ranges from the minimum to the maximum size.
type Resources struct {
	Size                   Size
	VCPUMin, VCPUMax       float64
	RAMMinGB, RAMMaxGB     float64
	LFCMinGB, LFCMaxGB     float64
	TempDiskGiB            float64
	Shared                 bool // the minimum size runs on shared compute
	ConnMin, ConnMax       int
	ConnKnown              bool // false above 38 CU, where the service publishes no number
	ConnectionsApproximate bool // true for autoscaling: the service's exact rule is not published
}

// Describe works out what a size gives. For an autoscaling range, max_connections is
// given as the range from the minimum to the maximum size, since the service's exact
// rule is not published.
func Describe(s Size) Resources {
	r := Resources{
		Size:    s,
		VCPUMin: VCPU(s.Min), VCPUMax: VCPU(s.Max),
		RAMMinGB: RAMGB(s.Min), RAMMaxGB: RAMGB(s.Max),
		LFCMinGB: LFCGB(s.Min), LFCMaxGB: LFCGB(s.Max),
		TempDiskGiB:            TempDiskGiB(s.Max),
		Shared:                 Shared(s.Min),
		ConnectionsApproximate: !s.Fixed(),
	}
	lo, okLo := MaxConnections(s.Min)
	hi, okHi := MaxConnections(s.Max)
	r.ConnMin, r.ConnMax, r.ConnKnown = lo, hi, okLo && okHi
	return r
}

// String reads the way a person says it:
// "0.25-4 CU autoscaling, 1-16 GB RAM, up to 112-1802 connections" or
// "2 CU fixed, 8 GB RAM, 901 connections".
func (r Resources) String() string {
	s := r.Size
	if s.Fixed() {
		out := fmt.Sprintf("%s, %s GB RAM", s, Format(r.RAMMinGB))
		if r.Shared {
			out += " (shared)"
		}
		return out + ", " + r.connections()
	}
	return fmt.Sprintf("%s, %s-%s GB RAM, %s", s, Format(r.RAMMinGB), Format(r.RAMMaxGB), r.connections())
}

// String is the size alone: "2 CU fixed" or "0.25-4 CU autoscaling".
func (s Size) String() string {
	if s.Fixed() {
		return Format(s.Min) + " CU fixed"
	}
	return Format(s.Min) + "-" + Format(s.Max) + " CU autoscaling"
}

// connections says max_connections, or why it cannot: the service publishes no
// number above 38 CU, nor for a size it does not offer (live data can hold one).
func (r Resources) connections() string {
	switch {
	case r.ConnKnown && r.Size.Fixed():
		return fmt.Sprintf("%d connections", r.ConnMax)
	case r.ConnKnown:
		return fmt.Sprintf("up to %d-%d connections", r.ConnMin, r.ConnMax)
	case r.Size.Max > 38:
		return "connections not published above 38 CU"
	}
	return "connections not published for this size"
}

// Extra gives the less-asked figures: "LFC 0.75-12 GB, temp disk 60 GiB".
func (r Resources) Extra() string {
	if r.Size.Fixed() {
		return fmt.Sprintf("LFC %s GB, temp disk %s GiB", Format(r.LFCMinGB), Format(r.TempDiskGiB))
	}
	return fmt.Sprintf("LFC %s-%s GB, temp disk %s GiB", Format(r.LFCMinGB), Format(r.LFCMaxGB), Format(r.TempDiskGiB))
}
