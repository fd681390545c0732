/* The kernel's floor under a warm evaluation in a large checkout (issue 41 item 2).
 *
 *   cc -O2 -o stat_floor bench/regelrecht/stat_floor.c && ./stat_floor CHECKOUT [ROUNDS]
 *
 * A warm `regelrecht-cli evalueer` believes the index in its cache only after it has stamped
 * every directory (an entry added, removed or renamed changes the directory's ctime) and every law
 * file (a file rewritten in place changes only its own stamp). This program makes exactly those
 * stat calls and nothing else, the way the walk makes them (regelrecht-cli/engine/src/walk.rs):
 * each directory that holds directories opened once (O_PATH), each directory below it stamped by
 * one name, each law file in a leaf folder by two ("folder/file"); status.yaml and hidden names
 * left out, as the walk leaves them out; the root stamped by its path. It records the tree first (untimed), then takes the
 * stamps ROUNDS times (default 10) and prints each round's CPU time (user + system, getrusage):
 * what the stamps alone cost on this machine, whatever a program does around them. Compare it with
 * a warm evaluation's CPU time (bench/regelrecht/corpus.sh) on the same machine at the same load.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

struct node {
  char *name;
  int is_dir;
  int count;
  struct node *children;
};

static int skipped(const char *name) {
  size_t n = strlen(name);
  if (name[0] == '.' || strcmp(name, "status.yaml") == 0) return 1;
  return !(n > 5 && strcmp(name + n - 5, ".yaml") == 0) && !(n > 4 && strcmp(name + n - 4, ".yml") == 0);
}

static void record(int parent, struct node *dir) {
  int fd = openat(parent, dir->name, O_RDONLY | O_DIRECTORY);
  DIR *stream = fdopendir(fd);
  if (!stream) { perror(dir->name); exit(1); }
  int room = 8;
  dir->children = malloc(room * sizeof *dir->children);
  struct dirent *entry;
  while ((entry = readdir(stream))) {
    int is_dir = entry->d_type == DT_DIR;
    if (entry->d_name[0] == '.' || (!is_dir && skipped(entry->d_name))) continue;
    if (dir->count == room) dir->children = realloc(dir->children, (room *= 2) * sizeof *dir->children);
    dir->children[dir->count++] = (struct node){strdup(entry->d_name), is_dir, 0, NULL};
  }
  for (int i = 0; i < dir->count; i++)
    if (dir->children[i].is_dir) record(dirfd(stream), &dir->children[i]);
  closedir(stream);
}

static int holds_directories(const struct node *dir) {
  for (int i = 0; i < dir->count; i++)
    if (dir->children[i].is_dir) return 1;
  return 0;
}

static long stamp(int fd, const struct node *dir) {
  struct stat st;
  char path[4096];
  long calls = 0;
  for (int i = 0; i < dir->count; i++) {
    const struct node *child = &dir->children[i];
    fstatat(fd, child->name, &st, AT_SYMLINK_NOFOLLOW), calls++;
    if (!child->is_dir) continue;
    if (holds_directories(child)) {
      int inner = openat(fd, child->name, O_PATH | O_DIRECTORY);
      calls += stamp(inner, child);
      close(inner);
    } else {
      for (int j = 0; j < child->count; j++) {
        snprintf(path, sizeof path, "%s/%s", child->name, child->children[j].name);
        fstatat(fd, path, &st, AT_SYMLINK_NOFOLLOW), calls++;
      }
    }
  }
  return calls;
}

static double ms(struct timeval t) { return t.tv_sec * 1e3 + t.tv_usec / 1e3; }

int main(int argc, char **argv) {
  if (argc < 2) { fprintf(stderr, "gebruik: %s CHECKOUT [RONDES]\n", argv[0]); return 2; }
  int rounds = argc > 2 ? atoi(argv[2]) : 10;
  struct node root = {argv[1], 1, 0, NULL};
  record(AT_FDCWD, &root);
  double load[1];
  getloadavg(load, 1);
  for (int r = 0; r < rounds; r++) {
    struct rusage before, after;
    getrusage(RUSAGE_SELF, &before);
    struct stat st;
    int fd = open(argv[1], O_PATH | O_DIRECTORY);
    fstatat(AT_FDCWD, argv[1], &st, 0); /* the root's own stamp */
    long calls = 1 + stamp(fd, &root);
    close(fd);
    getrusage(RUSAGE_SELF, &after);
    double user = ms(after.ru_utime) - ms(before.ru_utime), sys = ms(after.ru_stime) - ms(before.ru_stime);
    printf("ronde %d: %ld stat-aanroepen, CPU %.1f ms (systeem %.1f), belasting %.1f\n", r + 1, calls,
           user + sys, sys, load[0]);
  }
  return 0;
}
