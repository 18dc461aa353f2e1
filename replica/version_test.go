package replica_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/replica"
)

// fakeReplica is a Replica that serves nothing, for DigestVersionFor.
type fakeReplica struct{}

func (fakeReplica) Endpoint() replica.Endpoint { return replica.Endpoint{ID: "fake"} }
func (fakeReplica) Read(context.Context, replica.Command) (replica.Response, error) {
	return replica.Response{}, nil
}
func (fakeReplica) Apply(context.Context, replica.Mutation) error { return nil }

// versioned is a fakeReplica that supports digest versions up to max.
type versioned struct {
	fakeReplica
	max byte
}

func (v versioned) MaxDigestVersion() byte { return v.max }

func TestDigestVersionFor(t *testing.T) {
	tests := []struct {
		name     string
		replicas []replica.Replica
		want     byte
	}{
		{"none", nil, digest.Latest},
		{"without DigestVersioner", []replica.Replica{fakeReplica{}, fakeReplica{}}, digest.Latest},
		{"all new", []replica.Replica{versioned{max: digest.V2}, fakeReplica{}}, digest.V2},
		{"one old", []replica.Replica{versioned{max: digest.V2}, versioned{max: digest.V1}, fakeReplica{}}, digest.V1},
		{"newer than this build", []replica.Replica{versioned{max: 9}}, digest.Latest},
		{"an invalid 0 counts as 1", []replica.Replica{versioned{max: 0}, fakeReplica{}}, digest.V1},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, replica.DigestVersionFor(tt.replicas...), tt.name)
	}
}
