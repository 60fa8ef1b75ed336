package diff

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff/internal/difftest"
)

// A random walk over plans of a few computes, some sized by sensitive
// variables, under a random budget: the gate says the same as for the very
// plan with nothing sensitive (a sensitive value hides the cost, never the
// gate), and what the plan shows of a budget that counts a sensitive
// compute holds no figure of it. A failure prints its seed.
func TestBudgetGateIgnoresSensitivity(t *testing.T) {
	sizes := []float64{0.25, 0.5, 1, 2, 3, 4, 8}
	for seed := uint64(1); seed <= 300; seed++ {
		r := rand.New(rand.NewPCG(seed, 29))
		n := 1 + r.IntN(5)
		secret := make([]bool, n)
		maxes := make([]float64, n)
		for i := range n {
			secret[i], maxes[i] = r.IntN(2) == 0, sizes[r.IntN(len(sizes))]
		}
		budget := float64(1+r.IntN(2000)) / 2
		build := func(sensitive bool) (*Plan, string) {
			var blocks []*config.Compute
			for i := range n {
				c := difftest.Compute(fmt.Sprintf("c%d", i), difftest.ReadOnly, difftest.CU(0.25, maxes[i]))
				if i == 0 {
					c = difftest.Compute("c0", difftest.CU(0.25, maxes[i]))
				}
				if sensitive && secret[i] {
					c.Sensitive = map[string]bool{"max_cu": true}
				}
				blocks = append(blocks, c)
			}
			cfg := launch(difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, blocks...))))
			cfg.Settings.Budget = &config.Budget{MonthlyUSDMax: budget, DeclRange: difftest.At()}
			p, diags := Build(cfg, nil, liveOf(liveProject(difftest.Proj)), Options{})
			var text []string
			for _, d := range diags {
				text = append(text, d.Summary+": "+d.Detail)
			}
			return p, strings.Join(text, "\n")
		}
		plain, plainErr := build(false)
		hidden, hiddenErr := build(true)
		if (plain == nil) != (hidden == nil) {
			t.Fatalf("seed %d: %d computes (max %v, sensitive %v) under $%.2f: made %v with nothing sensitive, %v with sensitive sizes:\n%s\n%s",
				seed, n, maxes, secret, budget, plain != nil, hidden != nil, plainErr, hiddenErr)
		}
		anySecret := strings.Contains(fmt.Sprint(secret), "true")
		if hidden != nil {
			if b := hidden.Cost.Budgets; len(b) != 1 || b[0].Sensitive != anySecret || b[0].USDMax != plain.Cost.Budgets[0].USDMax {
				t.Fatalf("seed %d: budget use %+v, want the ceiling %+v, sensitive %v", seed, b, plain.Cost.Budgets, anySecret)
			}
			continue
		}
		total := ceiling.FindStringSubmatch(plainErr)
		if total == nil {
			t.Fatalf("seed %d: the error with nothing sensitive says no ceiling:\n%s", seed, plainErr)
		}
		if anySecret && strings.Contains(hiddenErr, total[0]) {
			t.Fatalf("seed %d: the error over a budget that counts a sensitive compute says its ceiling:\n%s", seed, hiddenErr)
		}
		for i := range n {
			if name := fmt.Sprintf("shop.main.c%d (sensitive)", i); secret[i] && countTrue(secret[:i]) < 3 && !strings.Contains(hiddenErr, name) {
				t.Fatalf("seed %d: the error does not name %s:\n%s", seed, name, hiddenErr)
			}
			if secret[i] && strings.Contains(hiddenErr, fmt.Sprintf("shop.main.c%d (+", i)) {
				t.Fatalf("seed %d: the error says what shop.main.c%d adds:\n%s", seed, i, hiddenErr)
			}
		}
	}
}

// ceiling is what an error over a budget says of the ceiling.
var ceiling = regexp.MustCompile(`could cost up to \$[0-9,.]+ a month`)

func countTrue(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}
