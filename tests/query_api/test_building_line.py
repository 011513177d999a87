"""The line an answer over a repository still being indexed carries (index_build.building_line):
a first index that has read every file and is applying it is not a resume (a QA pass saw
"edits made while the server was down" on a brand-new data directory)."""

from __future__ import annotations

from query_api.core.index_build import building_line
from schemas import tools as t


def test_each_phase_says_what_it_is() -> None:
    listing = building_line(t.IndexBuild(repoId="gen", phase="Walking", filesIndexed=3))
    assert "listing its files, 3 indexed so far" in listing
    walking = building_line(
        t.IndexBuild(repoId="gen", phase="Walking", filesIndexed=2, filesFound=5)
    )
    assert "still being built: 2 of 5 files so far" in walking
    applying = building_line(
        t.IndexBuild(repoId="gen", phase="Applying", filesIndexed=5, filesFound=5)
    )
    assert "still being built: all 5 files read, their index being applied" in applying
    assert "server was down" not in applying
    resuming = building_line(
        t.IndexBuild(repoId="gen", phase="Walking", filesIndexed=5, filesFound=5)
    )
    assert "compared with the disk (5 files)" in resuming and "server was down" in resuming


def test_a_restart_listing_its_files_is_no_first_index() -> None:
    """A server started again on a complete index lists the files to compare them: the
    answers then come from that index, not from a first walk's first files (a QA pass on
    sindresorhus/got read "still being built ... hits may be missing" at every stdio start)."""
    restart = building_line(
        t.IndexBuild(repoId="got", phase="Walking", filesIndexed=117, resumed=True)
    )
    assert "still being built" not in restart and "hits may be missing" not in restart
    assert "index of got (117 files) is being compared with the disk" in restart
    # a first index interrupted before it wrote anything is still being built
    empty = building_line(t.IndexBuild(repoId="got", phase="Walking", filesIndexed=0, resumed=True))
    assert "still being built" in empty


def test_a_restart_that_found_more_files_than_it_indexed_is_no_first_index() -> None:
    """The files found count binaries the index leaves out (a QA pass on poetry: 917 indexed
    of 1,006 found, 89 binaries, read "still being built: 917 of 1006 files so far" at every
    start on a complete index)."""
    restart = building_line(
        t.IndexBuild(
            repoId="poetry", phase="Walking", filesIndexed=917, filesFound=1006, resumed=True
        )
    )
    assert "still being built" not in restart and "hits may be missing" not in restart
    assert "index of poetry (917 files) is being compared with the disk, 1006 files found" in (
        restart
    )
