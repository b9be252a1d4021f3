package dist

import (
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"
)

// Config is one rank's place in a distributed run: what the launcher
// (gscript run, torchrun, srun, mpirun) told it, or what an embedding
// program passes in interp.Options.
type Config struct {
	Rank, WorldSize           int
	LocalRank, LocalWorldSize int
	// Master is the store's address, HOST:PORT: rank 0 serves it unless
	// AgentStore says the launcher does.
	Master string
	// AgentStore says the launcher serves the store (gscript run does, as
	// torchrun's agent does its own): rank 0 then connects like the others.
	AgentStore bool
	// Timeout bounds every wait for another rank (0: DefaultTimeout).
	Timeout time.Duration
	// Unchecked turns checked mode off (GSCRIPT_DIST_CHECK=0): the ranks
	// do not compare each collective's op, dtype and shape first.
	Unchecked bool
	// Launcher names where the configuration came from, for messages.
	Launcher string
}

// DefaultTimeout is how long a rank waits for another by default
// (GSCRIPT_DIST_TIMEOUT overrides it, in seconds).
const DefaultTimeout = 300 * time.Second

// DefaultPort is the store's port when the launcher names none (torch's).
const DefaultPort = 29500

// Env variables gscript's own launcher sets besides torchrun's.
const (
	EnvAgentStore = "GSCRIPT_AGENT_STORE" // "1": the launcher serves the store
	EnvLauncher   = "GSCRIPT_LAUNCHER"    // "gscript run"
	EnvTimeout    = "GSCRIPT_DIST_TIMEOUT"
	EnvCheck      = "GSCRIPT_DIST_CHECK"
)

// FromEnv reads the launchers' conventional variables: torchrun's (and
// gscript run's) RANK and WORLD_SIZE first, then Open MPI's, then Slurm's
// srun; ok is false when none is set (the script runs alone).
func FromEnv(lookup func(string) (string, bool)) (c Config, ok bool, err error) {
	get := func(k string) string { v, _ := lookup(k); return v }
	switch {
	case get("RANK") != "" && get("WORLD_SIZE") != "":
		c, err = fromVars(get, "torchrun", "RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE")
		if v := get(EnvLauncher); v != "" {
			c.Launcher = v
		}
	case get("OMPI_COMM_WORLD_RANK") != "":
		c, err = fromVars(get, "mpirun", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE",
			"OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE")
	case get("SLURM_PROCID") != "":
		c, err = fromVars(get, "srun", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID", "")
		if err == nil {
			c.LocalWorldSize = slurmLocalSize(get("SLURM_TASKS_PER_NODE"), c.WorldSize)
		}
	default:
		return Config{}, false, nil
	}
	if err == nil {
		err = c.readCommon(get)
	}
	return c, true, err
}

// fromVars reads the rank variables of one launcher; a missing local
// size is the world size (one node).
func fromVars(get func(string) string, launcher, rank, world, local, localWorld string) (Config, error) {
	c := Config{Launcher: launcher}
	for _, v := range []struct {
		name string
		dst  *int
		need bool
	}{{rank, &c.Rank, true}, {world, &c.WorldSize, true}, {local, &c.LocalRank, false}, {localWorld, &c.LocalWorldSize, false}} {
		s := get(v.name)
		if s == "" {
			if v.need {
				return c, fmt.Errorf("%s sets %s but not %s", launcher, rank, v.name)
			}
			continue
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return c, fmt.Errorf("%s=%q is not a rank or a count", v.name, s)
		}
		*v.dst = n
	}
	if localWorld == "" || get(localWorld) == "" {
		c.LocalWorldSize = c.WorldSize
	}
	if local == "" || get(local) == "" {
		c.LocalRank = c.Rank % max(1, c.LocalWorldSize)
	}
	return c, c.Validate()
}

// readCommon reads the store's address, the timeout and checked mode.
func (c *Config) readCommon(get func(string) string) error {
	host, port := get("MASTER_ADDR"), get("MASTER_PORT")
	if host == "" && c.Launcher == "srun" {
		host = FirstHost(get("SLURM_JOB_NODELIST"))
	}
	if host == "" {
		if c.LocalWorldSize < c.WorldSize {
			return fmt.Errorf("%s runs %d ranks on several nodes: set MASTER_ADDR (and MASTER_PORT) to rank 0's host", c.Launcher, c.WorldSize)
		}
		host = "127.0.0.1"
	}
	p := DefaultPort
	if port != "" {
		n, err := strconv.Atoi(port)
		if err != nil || n <= 0 || n > 65535 {
			return fmt.Errorf("MASTER_PORT=%q is not a port", port)
		}
		p = n
	}
	// torchrun's agent serves torch's own store on MASTER_PORT: gscript's
	// goes on the next port.
	if strings.EqualFold(get("TORCHELASTIC_USE_AGENT_STORE"), "true") && get(EnvAgentStore) == "" {
		p++
	}
	c.Master = net.JoinHostPort(host, strconv.Itoa(p))
	c.AgentStore = get(EnvAgentStore) == "1"
	if s := get(EnvTimeout); s != "" {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || f <= 0 {
			return fmt.Errorf("%s=%q is not a number of seconds", EnvTimeout, s)
		}
		c.Timeout = time.Duration(f * float64(time.Second))
	}
	c.Unchecked = get(EnvCheck) == "0"
	return nil
}

// Validate checks that the rank fits the world.
func (c *Config) Validate() error {
	switch {
	case c.WorldSize < 1:
		return fmt.Errorf("world size %d: a run has at least one rank", c.WorldSize)
	case c.Rank < 0 || c.Rank >= c.WorldSize:
		return fmt.Errorf("rank %d is outside a world of %d ranks", c.Rank, c.WorldSize)
	case c.LocalWorldSize < 1 || c.LocalRank < 0 || c.LocalRank >= c.LocalWorldSize:
		return fmt.Errorf("local rank %d is outside %d local ranks", c.LocalRank, c.LocalWorldSize)
	}
	return nil
}

// Wait is the timeout in force.
func (c *Config) Wait() time.Duration {
	if c.Timeout <= 0 {
		return DefaultTimeout
	}
	return c.Timeout
}

// FirstHost is the first host of a Slurm node list: "node[03-05,9],gpu1"
// gives "node03".
func FirstHost(list string) string {
	head, rest, found := strings.Cut(list, "[")
	if !found || strings.Contains(head, ",") {
		first, _, _ := strings.Cut(list, ",")
		return first
	}
	r, _, _ := strings.Cut(rest, "]")
	r, _, _ = strings.Cut(r, ",")
	r, _, _ = strings.Cut(r, "-")
	return head + r
}

// slurmLocalSize reads the first count of SLURM_TASKS_PER_NODE ("4(x2),3"
// is 4 on the first two nodes): ranks per node, assumed even.
func slurmLocalSize(s string, world int) int {
	s, _, _ = strings.Cut(s, ",")
	s, _, _ = strings.Cut(s, "(")
	if n, err := strconv.Atoi(s); err == nil && n > 0 {
		return n
	}
	return world
}
