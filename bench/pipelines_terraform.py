#!/usr/bin/env python3
"""bench/pipelines.sh's steps with Terraform + kenchan0130/neon, for docs/PERFORMANCE.md: a saved
production plan of N resizes, two previews applied with -target, a closed preview's resource forgotten
(terraform state rm), then the saved plan applied; Terraform refuses it as stale, so the production plan is
made and applied again. Each against a fresh emulator at the service's timings.

Usage: bench/pipelines_terraform.py NEONFORM_BIN N   (NEONFORM_BIN runs the emulator)
Needs Terraform, the provider built by the side-by-side scripts' build.sh, and their apply.py
(PEERS_SRC, default /work/shared/peers; PEERS, where build.sh put bin/).
"""
import os, shutil, subprocess, sys, tempfile, time
sys.dont_write_bytecode = True  # nothing written into the shared scripts' directory
sys.path.insert(0, os.environ.get("PEERS_SRC", "/work/shared/peers"))  # apply.py: the emulator and the provider set-up
import apply as peers

def cfg(base, prod, prevs, gone, max_cu, with_prevs, with_gone):
    s = ('terraform {\n  required_providers {\n    neon = { source = "kenchan0130/neon" }\n  }\n}\n'
         'provider "neon" {\n  api_key = "%s"\n  base_url = "%s"\n}\n' % (peers.KEY, base))
    def res(name, ps, mx):
        loc = "{\n" + "".join('    %s = { project_id = "%s", branch_id = "%s" }\n' % (k, p, b) for k, (p, b) in ps.items()) + "  }"
        return ('resource "neon_endpoint" "%s" {\n  for_each = %s\n  project_id = each.value.project_id\n'
                '  branch_id = each.value.branch_id\n  type = "read_only"\n  autoscaling_limit_min_cu = 0.25\n'
                '  autoscaling_limit_max_cu = %s\n}\n') % (name, loc, mx)
    s += res("prod", prod, max_cu)
    if with_prevs:
        s += res("prev", prevs, 1)
    if with_gone:
        s += res("gone", gone, 1)
    return s

def main():
    peers.NF = os.path.abspath(sys.argv[1]); n = int(sys.argv[2])
    work = tempfile.mkdtemp(prefix="tfpipe-")
    emu, base = peers.start_emulator(work)
    try:
        ps = peers.make_projects(base, n + 3)
        prod = {"svc%d" % i: ps[i] for i in range(n)}
        prevs = {"prev1": ps[n], "prev2": ps[n + 1]}
        gone = {"gone": ps[n + 2]}
        env = dict(os.environ); env.update(NEON_API_KEY=peers.KEY, CHECKPOINT_DISABLE="1", TF_IN_AUTOMATION="1")
        ov = os.path.join(work, "ov"); os.makedirs(ov)
        shutil.copy(os.path.join(peers.PEERS, "bin", "terraform-provider-neon-kc"), os.path.join(ov, "terraform-provider-neon"))
        rc = os.path.join(work, "tf.rc")
        open(rc, "w").write('provider_installation {\n  dev_overrides {\n    "registry.terraform.io/kenchan0130/neon" = "%s"\n  }\n  direct {}\n}\n' % ov)
        env["TF_CLI_CONFIG_FILE"] = rc
        w = lambda *a: open(os.path.join(work, "main.tf"), "w").write(cfg(base, prod, prevs, gone, *a))
        def step(name, cmd):
            a = peers.stats(base); t = time.monotonic()
            p = subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True)
            wall = time.monotonic() - t; req, n429 = peers.delta(a, peers.stats(base))
            print("%-18s %6.2f s, %d requests, %d x 429, rc=%d" % (name, wall, req, n429, p.returncode), flush=True)
            return p
        par = "-parallelism=" + peers.TF_PAR
        w(1, False, True); step("setup", ["terraform", "apply", "-auto-approve", "-input=false", par])
        w(2, False, True); step("production-plan", ["terraform", "plan", "-input=false", par, "-out=prod.tfplan"])
        w(2, True, True)
        step("preview-1-apply", ["terraform", "apply", "-auto-approve", "-input=false", par, '-target=neon_endpoint.prev["prev1"]'])
        step("preview-2-apply", ["terraform", "apply", "-auto-approve", "-input=false", par, '-target=neon_endpoint.prev["prev2"]'])
        w(2, True, False); step("forget (state rm)", ["terraform", "state", "rm", 'neon_endpoint.gone["gone"]'])
        p = step("production-apply", ["terraform", "apply", "-input=false", "-no-color", par, "prod.tfplan"])
        print("  " + " ".join(l.strip() for l in (p.stdout + p.stderr).splitlines() if "stale" in l.lower())[:300])
        step("production-replan", ["terraform", "plan", "-input=false", par, "-out=prod2.tfplan"])
        step("production-apply2", ["terraform", "apply", "-input=false", par, "prod2.tfplan"])
    finally:
        emu.terminate(); emu.wait(); shutil.rmtree(work, ignore_errors=True)

main()
