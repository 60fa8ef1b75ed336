package emulator

import (
	"fmt"
	"slices"
)

// BranchNames lists the names of a project's branches, sorted: the embedded sandbox
// checks a branch it is asked to create against them, so that a typo is caught
// rather than made a branch.
func (e *Emulator) BranchNames(projectID string) ([]string, error) {
	p := e.w.project(projectID)
	if p == nil {
		return nil, fmt.Errorf("emulator: project %s not found", projectID)
	}
	p.mu.RLock()
	names := make([]string, 0, len(p.branches))
	for _, b := range p.branches {
		names = append(names, b.Name)
	}
	p.mu.RUnlock()
	slices.Sort(names)
	return names, nil
}
