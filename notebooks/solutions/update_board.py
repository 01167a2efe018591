"""Model solutions for the exercises notebook: try on your own first!"""

from collections import deque

NEIGHBOURS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def _around(board, r, c):
    rows, cols = len(board), len(board[0])
    return [(r + dr, c + dc) for dr, dc in NEIGHBOURS if 0 <= r + dr < rows and 0 <= c + dc < cols]


def update_board_recursive(board, click):
    """Depth-first, recursive: the answer to exercise 1."""
    r, c = click
    if board[r][c] == "M":
        board[r][c] = "X"
        return board

    def reveal(r, c):
        around = _around(board, r, c)
        mines = sum(board[i][j] in "MX" for i, j in around)
        if mines:
            board[r][c] = str(mines)
            return
        board[r][c] = "B"
        for i, j in around:
            if board[i][j] == "E":
                reveal(i, j)

    if board[r][c] == "E":
        reveal(r, c)
    return board


def update_board_dfs(board, click):
    """Depth-first, with an explicit stack (no recursion limit), in the recursive order."""
    r, c = click
    if board[r][c] == "M":
        board[r][c] = "X"
        return board
    if board[r][c] != "E":
        return board
    stack = [(r, c)]
    while stack:
        r, c = stack.pop()
        if board[r][c] != "E":
            continue
        around = _around(board, r, c)
        mines = sum(board[i][j] in "MX" for i, j in around)
        board[r][c] = str(mines) if mines else "B"
        if not mines:
            stack.extend(reversed(around))  # the first neighbour is tried first
    return board


def update_board_bfs(board, click):
    """Breadth-first: mark a cell when it enters the queue, reveal it when it leaves."""
    r, c = click
    if board[r][c] == "M":
        board[r][c] = "X"
        return board
    if board[r][c] != "E":
        return board
    queue, seen = deque([(r, c)]), {(r, c)}
    while queue:
        r, c = queue.popleft()
        around = _around(board, r, c)
        mines = sum(board[i][j] in "MX" for i, j in around)
        board[r][c] = str(mines) if mines else "B"
        if not mines:
            for cell in around:
                if board[cell[0]][cell[1]] == "E" and cell not in seen:
                    seen.add(cell)
                    queue.append(cell)
    return board
