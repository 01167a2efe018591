# jupyterhub_config.py for a class using msviz on one server.
#
# Start the hub with `jupyterhub -f jupyterhub_config.py` in an environment with:
#   pip install jupyterhub jupyterhub-idle-culler jupyterhub-systemdspawner nbgitpuller \
#       "msviz-VERSION-py3-none-any.whl[notebooks]"      (the wheel `python3 dev.py wheel` builds)
# and Node's configurable-http-proxy (npm install -g configurable-http-proxy).
#
# The figures behind the limits: benchmarks/classroom.py runs a class through the
# whole core lesson (notebooks 01-05, on the guide's timeline) on a hub started with
# this file. With idle kernels culled after 15 minutes, at most three of a student's
# kernels are alive at once and a student's server peaks at about 520 MB (RSS;
# about 400 MB once the shared libraries are shared out); with every kernel kept
# it reaches about 740 MB. See docs/teaching.md for the class sizes.
import sys

c = get_config()  # noqa: F821

# ---- login: the school's accounts. PAM (this machine's users) works as it is;
# for a school login use an OAuthenticator (Google, GitHub, Azure AD, ...) instead.
c.JupyterHub.authenticator_class = "pam"
c.Authenticator.allow_all = True  # everyone who can log in; or list them: c.Authenticator.allowed_users

# ---- one server a student, each a systemd unit whose limits the kernel enforces.
c.JupyterHub.spawner_class = "systemdspawner.SystemdSpawner"
c.Spawner.default_url = "/lab"  # JupyterLab; "/tree" for Notebook 7
c.Spawner.mem_limit = "1G"  # the lesson with every kernel kept (740 MB RSS), and room to spare
c.Spawner.cpu_limit = 1.0  # a student's own code (the exercises) cannot take the machine
c.Spawner.start_timeout = 300  # a class signing in at once on a small server
c.Spawner.http_timeout = 300
c.JupyterHub.concurrent_spawn_limit = 20  # a few servers start at a time; the rest wait their turn

# ---- culling: a kernel idle for 15 minutes is shut down by its server (the lesson's
# earlier notebooks are done by then); a server idle for an hour by the hub's culler.
c.Spawner.args = [
    "--MappingKernelManager.cull_idle_timeout=900",
    "--MappingKernelManager.cull_interval=60",
    "--MappingKernelManager.cull_connected=True",  # a tab left open does not keep its kernel
]
c.JupyterHub.services = [
    {
        "name": "jupyterhub-idle-culler",
        "command": [sys.executable, "-m", "jupyterhub_idle_culler", "--timeout=3600", "--cull-every=300"],
    }
]
c.JupyterHub.load_roles = [
    {
        "name": "jupyterhub-idle-culler",
        "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
        "services": ["jupyterhub-idle-culler"],
    }
]

# ---- handing out the notebooks: nbgitpuller, installed above, copies (and later
# updates) the repository into each student's home, then opens the first notebook,
# from one link: NBGITPULLER_LINK below, once your hub's address and the class's
# copy of the repository are filled in. Give it to the students (it is the same for all).
HUB = "https://HUB"
REPO = "https://github.com/OWNER/msviz"
BRANCH = "main"
NBGITPULLER_LINK = (
    f"{HUB}/hub/user-redirect/git-pull?repo={REPO}&branch={BRANCH}"
    f"&urlpath=lab/tree/{REPO.rstrip('/').rsplit('/', 1)[-1]}/notebooks/01-start-here.ipynb"
)
