package main

import "testing"

func TestImpliedBy(t *testing.T) {
	truth := []ref{
		newRef("customer", []string{"c_w_id", "c_d_id"}, "district", []string{"d_w_id", "d_id"}),
		newRef("district", []string{"d_w_id"}, "warehouse", []string{"w_id"}),
		newRef("orders", []string{"o_w_id", "o_d_id", "o_c_id"}, "customer", []string{"c_w_id", "c_d_id", "c_id"}),
	}
	for _, c := range []struct {
		r    ref
		want bool
	}{
		{newRef("customer", []string{"c_w_id"}, "warehouse", []string{"w_id"}), true},
		// Two hops: orders → customer → district → warehouse.
		{newRef("orders", []string{"O_W_ID"}, "warehouse", []string{"w_id"}), true},
		// A narrower composite, its columns in another order.
		{newRef("orders", []string{"o_d_id", "o_w_id"}, "district", []string{"d_id", "d_w_id"}), true},
		// The same columns to another parent, or other columns: not said.
		{newRef("customer", []string{"c_w_id"}, "district", []string{"d_w_id"}), false},
		{newRef("customer", []string{"c_d_id"}, "warehouse", []string{"w_id"}), false},
		{newRef("customer", []string{"c_id"}, "warehouse", []string{"w_id"}), false},
		// A reference is not implied by itself.
		{newRef("district", []string{"d_w_id"}, "warehouse", []string{"w_id"}), false},
	} {
		if got := impliedBy(c.r, truth); got != c.want {
			t.Errorf("%v: implied %v, want %v", c.r, got, c.want)
		}
	}
}

func TestParseKey(t *testing.T) {
	r, ok := parseKey(RelKey("Customer", "c_w_id,c_d_id", "District", "d_w_id,d_id"))
	want := newRef("customer", []string{"c_d_id", "c_w_id"}, "district", []string{"d_id", "d_w_id"})
	if !ok || !sameRef(r, want) || len(r.from) != 2 {
		t.Errorf("parseKey: %v %v, want %v", r, ok, want)
	}
	if _, ok := parseKey("nothing"); ok {
		t.Error("parseKey read a key from nothing")
	}
}
