import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    # Start here: one click, many cells

    In Minesweeper a single click can uncover a whole region of the board. This kit
    lets you **watch that happen one cell at a time**, and compare the two classic
    ways a program does it: *depth-first* (a recursive function) and *breadth-first*
    (a queue). It follows the LeetCode problem 529, "Minesweeper", to the letter.

    This is the marimo version of `notebooks/01-start-here.ipynb`: the same board
    and the same widgets. Open it with `marimo edit notebooks/marimo/01_start_here.py`
    (or `marimo run` to see it as an app), in an environment where msviz and
    marimo are installed (`pip install ".[marimo]"` from a clone).
    """)
    return


@app.cell
def _():
    import marimo as mo

    import msviz

    return mo, msviz


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## Play

    Click a hidden (raised, grey) cell. The first click is always safe, and a cell
    with no mine around it floods open: watch the order in which the cells appear.
    A digit says how many of the eight cells around it hide a mine. A right-click
    (or a click with Shift held) plants a flag on a cell you think hides a mine.
    Press **New game** to start again.
    """)
    return


@app.cell
def _(mo, msviz):
    game = mo.ui.anywidget(msviz.game(9, 9, 10, seed=3))
    game
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## How to move through a reveal

    Every reveal comes with a **player**: press Play, drag the slider, or step back
    and forward with the step buttons. Or click the board and use the keys: left and
    right arrows one step, Home and End the first and last step, space to play and
    pause. **frames/s** sets the speed (up to 60); **steps/frame** moves several
    steps in each frame, for long reveals.

    The amber cell in a black border is the cell of this step; the blue path
    (depth-first) or the numbered dark red outlines (breadth-first) are the cells the
    program still has to come back to. The line under the board says in words what
    happens. The board is drawn by your browser, so the slider never waits.
    """)
    return


@app.cell
def _(mo, msviz):
    board = msviz.random_board(10, 14, 18, seed=7, safe=(5, 7))
    t = msviz.trace(board, (5, 7))  # the reveal the player shows, as arrays
    player = mo.ui.anywidget(msviz.player(t))
    player
    return board, t


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    **Predict**: go back to step 0, then step forward a few times. How many cells
    does one step uncover? And which cell does step 0 show?

    One cell a step: a step is one cell getting its symbol (`B` or a digit), in the
    order the program writes them. Step 0 is the clicked cell itself, `(5, 7)`.

    ## Two orders, one board

    The same click, depth-first on the left and breadth-first on the right, moved
    by one slider. Both end on the same board; the order in which the cells are
    written is what differs.
    """)
    return


@app.cell
def _(board, mo, msviz):
    both = mo.ui.anywidget(msviz.compare(board, (5, 7)))
    both
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## Checks
    """)
    return


@app.cell
def _(t):
    assert (t.visit(0).row, t.visit(0).col) == (5, 7)  # step 0: the click
    assert all(t.revealed_at(k).sum() == k + 1 for k in range(len(t)))  # one more cell a step
    return


if __name__ == "__main__":
    app.run()
