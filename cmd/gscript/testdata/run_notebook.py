"""Execute a notebook with nbclient: run_notebook.py IN OUT WORKDIR.

TestNotebook (jupyter_test.go) runs it with Debian's python3-nbclient
against the gscript kernelspec it installed; the kernel's working
directory is WORKDIR.
"""
import sys

import nbformat
from nbclient import NotebookClient

nb = nbformat.read(sys.argv[1], as_version=4)
NotebookClient(nb, kernel_name="gscript", timeout=120, resources={"metadata": {"path": sys.argv[3]}}).execute()
nbformat.write(nb, sys.argv[2])
