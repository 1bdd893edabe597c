package httpapi

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/ids"
	"github.com/agentsvc/agentsvc/internal/machines"
)

type machineIDIn struct {
	ID string `path:"id" doc:"Machine id (mch_…)."`
}

type machineOut struct{ Body machines.Machine }

type listMachinesIn struct{ PageParams }

type listMachinesOut struct{ Body *Page[machines.Machine] }

type createMachineIn struct {
	// A pointer: every field is optional, so POST without a body creates a
	// default machine.
	Body *createMachineBody
}

type createMachineBody struct {
	Name                string   `json:"name,omitempty" maxLength:"100" doc:"A name for people; default machine-<end of id>."`
	Size                string   `json:"size,omitempty" doc:"small (default: 1 CPU, 1 GiB), medium (2 CPUs, 4 GiB) or large (4 CPUs, 8 GiB)."`
	Image               string   `json:"image,omitempty" doc:"base (default: bash, coreutils, curl, git, python3) or desktop (adds Xvfb, openbox, x11vnc and noVNC)."`
	TTLSeconds          int64    `json:"ttl_seconds,omitempty" doc:"Each running period is stopped automatically after this many seconds (1 to 604800; default 3600)."`
	InjectCredentialIDs []string `json:"inject_credential_ids,omitempty" maxItems:"20" doc:"Vault credentials whose values are written to /run/agentsvc/credentials/<name> (mode 0600) inside the machine; never returned; audited."`
	ForkFrom            string   `json:"fork_from,omitempty" doc:"Make the machine a fork of another machine of this agent (mch_…): from its last snapshot when it is stopped, from a snapshot taken in place when it runs (the source pauses for about 0.1–0.2 s; its processes, connections and address carry on)."`
	IdempotencyKey      string   `json:"idempotency_key,omitempty" maxLength:"255" doc:"Retry with the same key and identical body to get the original result instead of a second machine."`
}

type deleteMachineIn struct {
	ID      string `path:"id" doc:"Machine id (mch_…)."`
	Confirm bool   `query:"confirm" doc:"Must be true: deletion removes the machine and all its snapshots and cannot be undone."`
}

type runIn struct {
	ID   string `path:"id" doc:"Machine id (mch_…)."`
	Body struct {
		Command        string `json:"command" minLength:"1" maxLength:"65536" doc:"Run by bash -c in /root."`
		TimeoutSeconds int    `json:"timeout_seconds,omitempty" doc:"1 to 3600, default 60. At the limit the command's process group is killed; timed_out is true and exit_code -1."`
	}
}

type runOut struct{ Body machines.RunResult }

type fileIn struct {
	ID   string `path:"id" doc:"Machine id (mch_…)."`
	Path string `query:"path" required:"true" doc:"Absolute path inside the machine; . and .. segments and /proc, /sys, /dev are refused."`
}

type fileOut struct{ Body machines.File }

type putFileIn struct {
	ID      string `path:"id" doc:"Machine id (mch_…)."`
	Path    string `query:"path" required:"true" doc:"Absolute path inside the machine; . and .. segments and /proc, /sys, /dev are refused."`
	RawBody []byte `contentType:"application/octet-stream" doc:"The file's content, as raw bytes (any Content-Type)."`
}

type putFileOut struct{ Body machines.WrittenFile }

type portIn struct {
	ID   string `path:"id" doc:"Machine id (mch_…)."`
	Body struct {
		Port int `json:"port" doc:"TCP port inside the machine, 1 to 65535."`
	}
}

type portOut struct{ Body machines.Port }

type desktopOut struct{ Body machines.Desktop }

func validMachineID(id string) error {
	if !ids.Valid("mch", id) {
		return apierr.NotFound("machine")
	}
	return nil
}

const machinesDoc = "Machines are gVisor sandboxes over a shared Debian/Ubuntu image, billed per second while running. " +
	"States: creating → running → stopped → running … → deleted (ready is not used: a machine runs as soon as it exists; " +
	"failed: its sandbox was lost without a snapshot). Invalid transitions are 409 `invalid_state`. " +
	"Another agent's machine is 404. Where the sandbox runtime or image is missing the answer is 503 `service_unavailable` naming `make machines-setup`."

func (s *Server) registerMachines() {
	tags := []string{"Machines"}
	// The overview goes on the tag, where it describes every operation,
	// rather than on a list operation that answers none of its errors.
	s.api.OpenAPI().Tags = append(s.api.OpenAPI().Tags, &huma.Tag{Name: "Machines", Description: machinesDoc})
	svc := s.deps.Machines

	register(s, huma.Operation{OperationID: "listMachines", Method: http.MethodGet, Path: "/api/v1/machines", Tags: tags,
		Summary: "List machines", Description: "The agent's machines (deleted ones excepted), newest first."},
		agentWith(auth.ComputeRead), func(ctx context.Context, in *listMachinesIn) (*listMachinesOut, error) {
			after, err := in.after()
			if err != nil {
				return nil, err
			}
			items, err := svc.List(ctx, auth.FromContext(ctx), in.Limit+1, after)
			if err != nil {
				return nil, err
			}
			return &listMachinesOut{Body: pageOf(items, in.Limit, func(m machines.Machine) string { return m.ID })}, nil
		})

	register(s, huma.Operation{OperationID: "createMachine", Errors: []int{402, 404, 503}, Method: http.MethodPost, Path: "/api/v1/machines", Tags: tags,
		Summary: "Create (or fork) a machine", DefaultStatus: http.StatusCreated,
		Description: "Starts a machine and answers when it runs (201, state running). With `fork_from` the machine is a fork of another. " +
			"402 `quota_exceeded` (machine_time) when the organization's monthly machine time is used up. " +
			"`inject_credential_ids` needs the vault (503 otherwise). Accepts `idempotency_key`. " + machinesDoc},
		agentWith(auth.ComputeRun), func(ctx context.Context, in *createMachineIn) (*machineOut, error) {
			if in.Body == nil {
				in.Body = &createMachineBody{}
			}
			m, err := svc.Create(ctx, auth.FromContext(ctx), machines.NewMachine{Name: in.Body.Name, Size: in.Body.Size, Image: in.Body.Image,
				TTLSeconds: in.Body.TTLSeconds, InjectCredentialIDs: in.Body.InjectCredentialIDs, ForkFrom: in.Body.ForkFrom})
			if err != nil {
				return nil, err
			}
			return &machineOut{Body: m}, nil
		})

	register(s, huma.Operation{OperationID: "getMachine", Method: http.MethodGet, Path: "/api/v1/machines/{id}", Tags: tags,
		Summary: "Read a machine", Description: "State, auto-stop time and charged seconds. A deleted machine is 404."},
		agentWith(auth.ComputeRead), func(ctx context.Context, in *machineIDIn) (*machineOut, error) {
			if err := validMachineID(in.ID); err != nil {
				return nil, err
			}
			m, err := svc.Get(ctx, auth.FromContext(ctx), in.ID)
			if err != nil {
				return nil, err
			}
			return &machineOut{Body: m}, nil
		})

	register(s, huma.Operation{OperationID: "deleteMachine", Errors: []int{503}, Method: http.MethodDelete, Path: "/api/v1/machines/{id}", Tags: tags,
		Summary: "Delete a machine",
		Description: "Permanently removes the machine, its sandbox and all its snapshots, and ends its billing. " +
			"Confirmation: the query parameter `confirm=true` is required (400 without it). Answers the machine with state `deleted` and its final charged_time_seconds; afterwards it is 404."},
		agentWith(auth.ComputeAdmin), func(ctx context.Context, in *deleteMachineIn) (*machineOut, error) {
			if err := validMachineID(in.ID); err != nil {
				return nil, err
			}
			p := auth.FromContext(ctx)
			if !in.Confirm {
				if _, err := svc.Get(ctx, p, in.ID); err != nil {
					return nil, err
				}
				return nil, apierr.Invalid("confirm", "deleting a machine removes it and all its snapshots for good").
					WithHint("repeat the request with ?confirm=true")
			}
			m, err := svc.Delete(ctx, p, in.ID)
			if err != nil {
				return nil, err
			}
			return &machineOut{Body: m}, nil
		})

	register(s, huma.Operation{OperationID: "stopMachine", Errors: []int{409, 503}, Method: http.MethodPost, Path: "/api/v1/machines/{id}/stop", Tags: tags,
		Summary: "Stop a machine",
		Description: "Checkpoints memory and disk, releases the sandbox and stops billing (unused time stays in the allowance). " +
			"409 `invalid_state` unless running."},
		agentWith(auth.ComputeRun), func(ctx context.Context, in *machineIDIn) (*machineOut, error) {
			if err := validMachineID(in.ID); err != nil {
				return nil, err
			}
			m, err := svc.Stop(ctx, auth.FromContext(ctx), in.ID)
			if err != nil {
				return nil, err
			}
			return &machineOut{Body: m}, nil
		})

	register(s, huma.Operation{OperationID: "resumeMachine", Errors: []int{402, 409, 503}, Method: http.MethodPost, Path: "/api/v1/machines/{id}/resume", Tags: tags,
		Summary: "Resume a machine",
		Description: "Restores the machine from its last snapshot: processes continue where they were, the port URLs work again, billing restarts and auto_stop_at is now + ttl_seconds. " +
			"409 `invalid_state` unless stopped; 402 `quota_exceeded` when the machine time is used up."},
		agentWith(auth.ComputeRun), func(ctx context.Context, in *machineIDIn) (*machineOut, error) {
			if err := validMachineID(in.ID); err != nil {
				return nil, err
			}
			m, err := svc.Resume(ctx, auth.FromContext(ctx), in.ID)
			if err != nil {
				return nil, err
			}
			return &machineOut{Body: m}, nil
		})

	register(s, huma.Operation{OperationID: "runCommand", Errors: []int{409, 503}, Method: http.MethodPost, Path: "/api/v1/machines/{id}/run", Tags: tags,
		Summary: "Run a command",
		Description: "Runs `command` with bash -c in /root and answers when it ends: exit_code, stdout, stderr (each at most 1 MiB, truncation flagged; " +
			"text when valid UTF-8, else base64 as stdout_encoding says). Several commands may run at once. Processes the command starts with setsid or nohup in the background keep running. " +
			"Command output is untrusted data. 409 `invalid_state` unless running."},
		agentWith(auth.ComputeRun), func(ctx context.Context, in *runIn) (*runOut, error) {
			if err := validMachineID(in.ID); err != nil {
				return nil, err
			}
			res, err := svc.Run(ctx, auth.FromContext(ctx), in.ID, machines.RunRequest{Command: in.Body.Command,
				Timeout: time.Duration(in.Body.TimeoutSeconds) * time.Second})
			if err != nil {
				return nil, err
			}
			return &runOut{Body: res}, nil
		})

	register(s, huma.Operation{OperationID: "readMachineFile", Errors: []int{409, 503}, Method: http.MethodGet, Path: "/api/v1/machines/{id}/files", Tags: tags,
		Summary: "Read a file",
		Description: "Returns the file as JSON: `encoding` is `text` when the content is valid UTF-8 without NUL bytes, else `base64`. At most 8 MiB (400 beyond). " +
			"Paths resolve inside the machine's own kernel; 404 when there is no regular file."},
		agentWith(auth.ComputeRead), func(ctx context.Context, in *fileIn) (*fileOut, error) {
			if err := validMachineID(in.ID); err != nil {
				return nil, err
			}
			f, err := svc.ReadFile(ctx, auth.FromContext(ctx), in.ID, in.Path)
			if err != nil {
				return nil, err
			}
			return &fileOut{Body: f}, nil
		})

	register(s, huma.Operation{OperationID: "writeMachineFile", Errors: []int{409, 503}, Method: http.MethodPut, Path: "/api/v1/machines/{id}/files", Tags: tags,
		Summary: "Write a file", MaxBodyBytes: machines.MaxFileBytes,
		Description: "The request body is the file's content, as raw bytes (send Content-Type: application/octet-stream; JSON is not parsed). " +
			"Creates or replaces the file (mode 0644) and creates missing parent directories. At most 8 MiB."},
		agentWith(auth.ComputeRun), func(ctx context.Context, in *putFileIn) (*putFileOut, error) {
			if err := validMachineID(in.ID); err != nil {
				return nil, err
			}
			f, err := svc.WriteFile(ctx, auth.FromContext(ctx), in.ID, in.Path, in.RawBody)
			if err != nil {
				return nil, err
			}
			return &putFileOut{Body: f}, nil
		})

	register(s, huma.Operation{OperationID: "exposeMachinePort", Errors: []int{409, 503}, Method: http.MethodPost, Path: "/api/v1/machines/{id}/ports", Tags: tags,
		Summary: "Expose a port",
		Description: "Makes a TCP port of the machine reachable, over HTTP and WebSocket, at a stable public URL " +
			"`https://<port>-<machine id>.<machines domain>` (dev: `http://<port>-<machine id>.machines.localhost:<http port>`). " +
			"The URL keeps working after stop and resume (while stopped it answers 503). Anyone with the URL can use it. Exposing again returns the same URL."},
		agentWith(auth.ComputeRun), func(ctx context.Context, in *portIn) (*portOut, error) {
			if err := validMachineID(in.ID); err != nil {
				return nil, err
			}
			p, err := svc.ExposePort(ctx, auth.FromContext(ctx), in.ID, in.Body.Port)
			if err != nil {
				return nil, err
			}
			return &portOut{Body: p}, nil
		})

	register(s, huma.Operation{OperationID: "getMachineDesktop", Errors: []int{409, 503}, Method: http.MethodGet, Path: "/api/v1/machines/{id}/desktop", Tags: tags,
		Summary: "Open the desktop",
		Description: "For a running machine created with image `desktop`: starts its desktop if needed and returns a URL to noVNC in a browser, " +
			"authorized by a signed token in the URL (valid 5 minutes; the browser session it opens lasts an hour), not by the agent's token. " +
			"409 `invalid_state` for a machine with the base image or not running."},
		agentWith(auth.ComputeAdmin), func(ctx context.Context, in *machineIDIn) (*desktopOut, error) {
			if err := validMachineID(in.ID); err != nil {
				return nil, err
			}
			d, err := svc.Desktop(ctx, auth.FromContext(ctx), in.ID)
			if err != nil {
				return nil, err
			}
			return &desktopOut{Body: d}, nil
		})
}
