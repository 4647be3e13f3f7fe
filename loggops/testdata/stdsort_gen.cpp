// Generates testdata/stdsort.txt: inputs (types) and g++ std::sort output (ids).
#include <algorithm>
#include <cstdio>
#include <vector>
struct E { int type; int id; };
int main() {
  unsigned long long x = 12345;
  auto rnd = [&]() { x = x * 6364136223846793005ULL + 1442695040888963407ULL; return (unsigned)(x >> 33); };
  int lens[] = {1,2,5,16,17,18,20,31,33,50,62,64,100,127,200,257,513,1000,2049};
  for (int n : lens) for (int rep = 0; rep < 4; rep++) {
    std::vector<E> v(n);
    int ntypes = 1 + rep % 3;
    for (int i = 0; i < n; i++) { v[i].type = 1 + rnd() % ntypes; if (rep==3) v[i].type = (i < n/2) ? 3 : 1 + (i%2); v[i].id = i; }
    printf("in");
    for (auto &e : v) printf(" %d", e.type);
    printf("\n");
    std::sort(v.begin(), v.end(), [](const E &a, const E &b) { return a.type < b.type; });
    printf("out");
    for (auto &e : v) printf(" %d", e.id);
    printf("\n");
  }
}
