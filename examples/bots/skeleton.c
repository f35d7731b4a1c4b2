/* A Dealer's Choice bot in C (C99 + POSIX), over the line protocol of docs/protocol.md:
 * one JSON object per line on stdin, one answer per line on stdout.
 *
 * Rule (legal in every variant): call or stay with a made hand (two cards of a rank
 * among its own and the community cards), else check, else fold; draw nothing; any
 * other decision (bring-in, declare, split, the dealer's choice of game) takes the
 * first legal action. It reads only the fields it needs, with a tiny scanner that
 * tolerates any spacing; a real bot would use a JSON library.
 *
 *   cc -O2 -o skeleton examples/bots/skeleton.c
 *   dealers-choice dealer stud cmd:./skeleton pretrained:stud
 *   ./skeleton --port 7000      # serve: the dealer connects to tcp://127.0.0.1:7000
 */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_ACTIONS 128
#define MAX_CARDS 64

/* The value of "key" in s (after the colon and spaces), or NULL. */
static const char *value_of(const char *s, const char *key) {
    char quoted[64];
    snprintf(quoted, sizeof quoted, "\"%s\"", key);
    for (const char *p = strstr(s, quoted); p; p = strstr(p + 1, quoted)) {
        const char *q = p + strlen(quoted);
        while (*q == ' ') q++;
        if (*q == ':') {
            q++;
            while (*q == ' ') q++;
            return q;
        }
    }
    return NULL;
}

/* Ints of the JSON array at p into out; returns how many. */
static int ints(const char *p, int *out, int max) {
    int n = 0;
    if (!p || *p != '[') return 0;
    for (p++; *p && *p != ']' && n < max;) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p) { p++; continue; }
        out[n++] = (int)v;
        p = end;
    }
    return n;
}

/* Whether the JSON array of strings at p holds name at position i (names have no escapes). */
static int name_at(const char *p, int i, const char *name) {
    if (!p || *p != '[') return 0;
    for (int k = 0; (p = strchr(p, '"')); k++) {
        const char *end = strchr(p + 1, '"');
        if (!end) return 0;
        if (k == i) return (size_t)(end - p - 1) == strlen(name) && strncmp(p + 1, name, end - p - 1) == 0;
        p = end + 1;
    }
    return 0;
}

static int choose(const char *view) {
    int actions[MAX_ACTIONS], cards[MAX_CARDS], n, c, to_call = 0, made = 0;
    const char *names = value_of(view, "legal_names"), *t = value_of(view, "to_call");
    n = ints(value_of(view, "legal_actions"), actions, MAX_ACTIONS);
    c = ints(value_of(view, "own_cards"), cards, MAX_CARDS);
    c += ints(value_of(view, "community"), cards + c, MAX_CARDS - c);
    if (t) to_call = atoi(t);
    for (int i = 0; i < c; i++)
        for (int j = i + 1; j < c; j++) made |= cards[i] / 4 == cards[j] / 4;
    const char *order[] = {made || to_call == 0 ? "check_call" : "", made ? "stay" : "", "discard_none", "fold"};
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < n; i++)
            if (*order[k] && name_at(names, i, order[k])) return actions[i];
    return n > 0 ? actions[0] : 0;
}

/* One session: answer the greeting and every decision until the match ends. */
static void play(FILE *in, FILE *out) {
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, in) > 0) {
        const char *type = value_of(line, "type");
        if (!type) continue;
        if (strncmp(type, "\"hello\"", 7) == 0) {
            fprintf(out, "{\"type\":\"ready\",\"name\":\"c-skeleton\"}\n");
        } else if (strncmp(type, "\"act\"", 5) == 0) {
            fprintf(out, "{\"action\":%d}\n", choose(value_of(line, "view")));
        } else if (strncmp(type, "\"end_match\"", 11) == 0 || strncmp(type, "\"error\"", 7) == 0) {
            break;
        }
        fflush(out);
    }
    free(line);
}

int main(int argc, char **argv) {
    if (argc == 1) {
        play(stdin, stdout);
        return 0;
    }
    if (argc != 3 || strcmp(argv[1], "--port") != 0) {
        fprintf(stderr, "usage: %s [--port PORT]\n", argv[0]);
        return 2;
    }
    int server = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((unsigned short)atoi(argv[2]))};
    socklen_t size = sizeof addr;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    setsockopt(server, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(server, (struct sockaddr *)&addr, sizeof addr) || listen(server, 8)) {
        perror("skeleton");
        return 1;
    }
    getsockname(server, (struct sockaddr *)&addr, &size);
    printf("listening 127.0.0.1:%d\n", ntohs(addr.sin_port));
    fflush(stdout);
    for (int fd; (fd = accept(server, NULL, NULL)) >= 0;) { /* one match at a time */
        FILE *in = fdopen(fd, "r"), *out = fdopen(dup(fd), "w");
        play(in, out);
        fclose(in);
        fclose(out);
    }
    return 0;
}
