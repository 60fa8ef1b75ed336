package managed

// Suspend timeouts in seconds, in the service's terms (docs/service.md,
// Requests and defaults): 0 is its default, -1 never, otherwise 60 to 604800.
const (
	// SuspendDefault asks for the service's default, ServiceDefaultSuspend.
	SuspendDefault int64 = 0
	// SuspendNever keeps a compute from scaling to zero.
	SuspendNever int64 = -1
	// ServiceDefaultSuspend is what SuspendDefault means to the service.
	ServiceDefaultSuspend = 300
	// DefaultCU is the size the service gives a compute created without one,
	// fixed (docs/service.md, Requests and defaults): what a compute block
	// that writes no size means, and what the emulator creates.
	DefaultCU = 1
)

// EffectiveSuspend is the suspend timeout in seconds that s gives a compute:
// the default is ServiceDefaultSuspend, so 0 and 300 are the same timeout;
// never and every other value are themselves.
func EffectiveSuspend(s int64) int64 {
	if s == SuspendDefault {
		return ServiceDefaultSuspend
	}
	return s
}

// Settings is Postgres settings as every package holds them: never nil, so
// "no settings" is an empty map, written {} in a plan, a digest and a request.
func Settings(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}
