package jsonfast_test

import (
	"errors"
	"testing"

	"github.com/neonform/neonform/internal/jsonfast"
)

type item struct {
	N int `json:"n"`
}

// A look is called before each value of its type: it lets the value be
// decoded, skips it (left zero), or stops the decoding with its error,
// the target zero again.
func TestLooks(t *testing.T) {
	data := []byte(`{"items":[{"n":1},{"n":2},{"n":3},{"n":4}]}`)
	var v struct {
		Items []item `json:"items"`
	}
	calls := 0
	skipEven := jsonfast.Every[item](func() error {
		if calls++; calls%2 == 0 {
			return jsonfast.ErrSkip
		}
		return nil
	})
	if ok, err := jsonfast.DecodeLooking(data, &v, true, skipEven); !ok || err != nil || calls != 4 {
		t.Fatalf("DecodeLooking = %v, %v after %d calls; want true, nil after 4", ok, err, calls)
	}
	if want := []item{{1}, {}, {3}, {}}; len(v.Items) != 4 || v.Items[1] != want[1] || v.Items[2] != want[2] || v.Items[3] != want[3] {
		t.Errorf("items %v, want %v", v.Items, want)
	}
	stop := errors.New("interrupted")
	calls = 0
	stopAtThird := jsonfast.Every[item](func() error {
		if calls++; calls == 3 {
			return stop
		}
		return nil
	})
	if ok, err := jsonfast.DecodeLooking(data, &v, true, stopAtThird); ok || err != stop || calls != 3 || v.Items != nil {
		t.Errorf("DecodeLooking = %v, %v after %d calls, items %v; want false, the look's error after 3, none", ok, err, calls, v.Items)
	}
}
