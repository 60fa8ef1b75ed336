package managed

// ServiceDefaultSuspend is what a suspend timeout of 0 means to the service:
// 300 seconds (docs/service.md, Requests and defaults).
const ServiceDefaultSuspend = 300

// EffectiveSuspend is the suspend timeout in seconds that s gives a compute:
// 0 is the service's default, so 0 and 300 are the same timeout; -1 (never)
// and every other value are themselves.
func EffectiveSuspend(s int64) int64 {
	if s == 0 {
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
