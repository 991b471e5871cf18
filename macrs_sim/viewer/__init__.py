"""`macrs-sim view`: a static HTML site to browse a run's dialogues, internals and results.

    from macrs_sim.viewer import build_site
    build_site([load_run("runs/example-...")], Path("view"))

The export document (`export_run`) and the site's files are described in docs/viewer.md.
"""

from macrs_sim.viewer.export import export_run
from macrs_sim.viewer.site import SiteInfo, build_site

__all__ = ["SiteInfo", "build_site", "export_run"]
