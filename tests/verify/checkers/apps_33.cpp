// APPS 33 (Codeforces 1430C, numbers on the board): the least last number, and n - 1
// operations that reach it. Checks the number against the jury's and replays the
// operations on the board (testlib: readers give _pe on malformed output, _wa on ranges).
#include "testlib.h"
#include <set>

int main(int argc, char* argv[]) {
  registerTestlibCmd(argc, argv);
  int t = inf.readInt();
  for (int tc = 0; tc < t; ++tc) {
    int n = inf.readInt();
    int best = ans.readInt();
    for (int i = 0; i < 2 * (n - 1); ++i) ans.readInt();
    int got = ouf.readInt(1, n, "the number");
    if (got != best) quitf(_wa, "case %d: %d is not the least number", tc + 1, got);
    std::multiset<int> board;
    for (int i = 1; i <= n; ++i) board.insert(i);
    for (int op = 0; op < n - 1; ++op) {
      int a = ouf.readInt(1, n, "a"), b = ouf.readInt(1, n, "b");
      auto ia = board.find(a);
      if (ia == board.end()) quitf(_wa, "case %d: %d is not on the board", tc + 1, a);
      board.erase(ia);
      auto ib = board.find(b);
      if (ib == board.end()) quitf(_wa, "case %d: %d is not on the board", tc + 1, b);
      board.erase(ib);
      board.insert((a + b + 1) / 2);
    }
    if (*board.begin() != got) quitf(_wa, "case %d: the operations end at %d", tc + 1, *board.begin());
  }
  quitf(_ok, "%d cases", t);
}
