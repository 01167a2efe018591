"""Plain, obviously correct solutions, written apart from msviz, to check it against."""

import copy
import sys
from collections import deque


def _count(board, r, c):
    rows, cols = len(board), len(board[0])
    return sum(
        board[r + dr][c + dc] in "MX"
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= r + dr < rows and 0 <= c + dc < cols
    )


def recursive_dfs_order(board, click, neighbors):
    """The classic recursive solution; returns [(row, col, value, depth)] in writing order."""
    board = copy.deepcopy(board)
    rows, cols = len(board), len(board[0])
    out = []

    def dfs(r, c, depth):
        k = _count(board, r, c)
        board[r][c] = str(k) if k else "B"
        out.append((r, c, board[r][c], depth))
        if k:
            return
        for dr, dc in neighbors:
            nr, nc = r + dr, c + dc
            if 0 <= nr < rows and 0 <= nc < cols and board[nr][nc] == "E":
                dfs(nr, nc, depth + 1)

    r, c = click
    if board[r][c] == "M":
        return [(r, c, "X", 0)]
    if board[r][c] != "E":
        return []
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, rows * cols + 100))
    try:
        dfs(r, c, 0)
    finally:
        sys.setrecursionlimit(old)
    return out


def queue_bfs_order(board, click, neighbors):
    """The classic queue solution; returns [(row, col, value, layer, queue length after)]."""
    board = copy.deepcopy(board)
    rows, cols = len(board), len(board[0])
    r, c = click
    if board[r][c] == "M":
        return [(r, c, "X", 0, 0)]
    if board[r][c] != "E":
        return []
    queue = deque([(r, c, 0)])
    seen = {(r, c)}
    out = []
    while queue:
        r, c, layer = queue.popleft()
        k = _count(board, r, c)
        board[r][c] = str(k) if k else "B"
        if not k:
            for dr, dc in neighbors:
                nr, nc = r + dr, c + dc
                if 0 <= nr < rows and 0 <= nc < cols and board[nr][nc] == "E":
                    if (nr, nc) not in seen:
                        seen.add((nr, nc))
                        queue.append((nr, nc, layer + 1))
        out.append((r, c, board[r][c], layer, len(queue)))
    return out


def expected_revealed(board, click):
    """The cells a click reveals, by connected components: the zero region and its ring."""
    rows, cols = len(board), len(board[0])
    r, c = click
    if board[r][c] == "M":
        return {(r, c)}
    if board[r][c] != "E":
        return set()
    if _count(board, r, c):
        return {(r, c)}
    region, todo = {(r, c)}, [(r, c)]
    while todo:  # the 8-connected hidden zero cells around the click
        r, c = todo.pop()
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                n = (r + dr, c + dc)
                if 0 <= n[0] < rows and 0 <= n[1] < cols and n not in region:
                    if board[n[0]][n[1]] == "E" and _count(board, *n) == 0:
                        region.add(n)
                        todo.append(n)
    ring = {
        (r + dr, c + dc)
        for r, c in region
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if 0 <= r + dr < rows and 0 <= c + dc < cols and board[r + dr][c + dc] == "E"
    }
    return region | ring


def mine_count(board, r, c):
    return _count(board, r, c)


def recursive_dfs_events(board, click, neighbors):
    """The classic recursive solution, instrumented: [(label, row, col, depth)] of each call and return."""
    board = copy.deepcopy(board)
    rows, cols = len(board), len(board[0])
    out = []

    def dfs(r, c, depth):
        out.append(("call", r, c, depth))
        if board[r][c] == "M":
            board[r][c] = "X"
        else:
            k = _count(board, r, c)
            board[r][c] = str(k) if k else "B"
            if not k:
                for dr, dc in neighbors:
                    nr, nc = r + dr, c + dc
                    if 0 <= nr < rows and 0 <= nc < cols and board[nr][nc] == "E":
                        dfs(nr, nc, depth + 1)
        out.append(("return", r, c, depth))

    r, c = click
    if board[r][c] not in "ME":
        return []
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, rows * cols + 100))
    try:
        dfs(r, c, 0)
    finally:
        sys.setrecursionlimit(old)
    return out


def queue_bfs_events(board, click, neighbors):
    """The classic queue solution, instrumented: [(label, row, col, layer)] of each enqueue and dequeue."""
    board = copy.deepcopy(board)
    rows, cols = len(board), len(board[0])
    r, c = click
    if board[r][c] not in "ME":
        return []
    out = [("enqueue", r, c, 0)]
    queue = deque([(r, c, 0)])
    seen = {(r, c)}
    while queue:
        r, c, layer = queue.popleft()
        out.append(("dequeue", r, c, layer))
        if board[r][c] == "M":
            board[r][c] = "X"
            continue
        k = _count(board, r, c)
        board[r][c] = str(k) if k else "B"
        if not k:
            for dr, dc in neighbors:
                nr, nc = r + dr, c + dc
                if 0 <= nr < rows and 0 <= nc < cols and board[nr][nc] == "E" and (nr, nc) not in seen:
                    seen.add((nr, nc))
                    queue.append((nr, nc, layer + 1))
                    out.append(("enqueue", nr, nc, layer + 1))
    return out
