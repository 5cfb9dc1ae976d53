// SPDX-License-Identifier: GPL-2.0
/*
 * crashy_server: a tiny key-value server on 127.0.0.1 for `make demo`.
 *
 *   crashy_server [PORT [PORTFILE]]     (PORT 0: any; the port is written to PORTFILE)
 *
 * One connection at a time, one request per line:
 *   SET KEY VALUE   -> OK
 *   GET KEY         -> VALUE
 *   DEL KEY         -> OK
 *   STATS           -> keys N requests N
 *   QUIT            -> closes the connection
 * The bug: GET of a deleted key follows a dangling slot whose value pointer
 * was cleared, and formats it with strlen(NULL): SIGSEGV in the server.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define NKEYS 256

struct slot {
	char key[32];
	char *value;
	int used;
};

static struct slot table[NKEYS];
static unsigned long requests;

static unsigned int hash(const char *s)
{
	unsigned int h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h % NKEYS;
}

static struct slot *find(const char *key, int create)
{
	unsigned int h = hash(key), i;

	for (i = 0; i < NKEYS; i++) {
		struct slot *s = &table[(h + i) % NKEYS];

		/* bug: a deleted slot keeps its key, so find() still returns it */
		if (s->key[0] && !strcmp(s->key, key))
			return s;
		if (!s->key[0]) {
			if (!create)
				return NULL;
			snprintf(s->key, sizeof(s->key), "%s", key);
			return s;
		}
	}
	return NULL;
}

static int reply(int fd, const char *msg)
{
	size_t len = strlen(msg);

	return write(fd, msg, len) == (ssize_t)len ? 0 : -1;
}

static __attribute__((noinline)) int handle_get(int fd, const char *key)
{
	struct slot *s = find(key, 0);
	char out[256];
	size_t vlen;

	if (!s)
		return reply(fd, "ERR no such key\n");
	vlen = strlen(s->value);	/* value is NULL after DEL: the crash */
	snprintf(out, sizeof(out), "%.*s\n", (int)vlen, s->value);
	return reply(fd, out);
}

static int handle(int fd, char *line)
{
	char *cmd = strtok(line, " \r\n"), *key = strtok(NULL, " \r\n");
	char *val = strtok(NULL, "\r\n");
	char out[64];
	struct slot *s;
	int n;

	requests++;
	if (!cmd)
		return reply(fd, "ERR empty\n");
	if (!strcmp(cmd, "QUIT"))
		return -1;
	if (!strcmp(cmd, "STATS")) {
		for (s = table, n = 0; s < table + NKEYS; s++)
			n += s->used;
		snprintf(out, sizeof(out), "keys %d requests %lu\n", n, requests);
		return reply(fd, out);
	}
	if (!key)
		return reply(fd, "ERR no key\n");
	if (!strcmp(cmd, "SET") && val) {
		s = find(key, 1);
		if (!s)
			return reply(fd, "ERR full\n");
		free(s->value);
		s->value = strdup(val);
		s->used = 1;
		return reply(fd, "OK\n");
	}
	if (!strcmp(cmd, "GET"))
		return handle_get(fd, key);
	if (!strcmp(cmd, "DEL")) {
		s = find(key, 0);
		if (s) {
			free(s->value);
			s->value = NULL;
			s->used = 0;
		}
		return reply(fd, "OK\n");
	}
	return reply(fd, "ERR unknown command\n");
}

static void serve(int fd)
{
	char buf[4096];
	size_t have = 0;

	for (;;) {
		ssize_t n = read(fd, buf + have, sizeof(buf) - 1 - have);
		char *nl;

		if (n <= 0)
			return;
		have += (size_t)n;
		buf[have] = 0;
		while ((nl = memchr(buf, '\n', have))) {
			size_t len = (size_t)(nl - buf) + 1;
			char line[4096];

			memcpy(line, buf, len);
			line[len] = 0;
			memmove(buf, buf + len, have - len);
			have -= len;
			if (handle(fd, line))
				return;
		}
		if (have == sizeof(buf) - 1)
			have = 0;
	}
}

int main(int argc, char **argv)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t alen = sizeof(a);
	int ls, one = 1;

	a.sin_port = htons(argc > 1 ? (unsigned short)atoi(argv[1]) : 0);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ls = socket(AF_INET, SOCK_STREAM, 0);
	if (ls < 0 || setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(ls, (struct sockaddr *)&a, sizeof(a)) || listen(ls, 8) ||
	    getsockname(ls, (struct sockaddr *)&a, &alen)) {
		perror("crashy_server");
		return 1;
	}
	if (argc > 2) {
		FILE *f = fopen(argv[2], "w");

		if (!f || fprintf(f, "%d\n", ntohs(a.sin_port)) < 0 || fclose(f))
			return 1;
	}
	printf("crashy_server: listening on 127.0.0.1:%d\n", ntohs(a.sin_port));
	fflush(stdout);
	for (;;) {
		int fd = accept(ls, NULL, NULL);

		if (fd < 0)
			continue;
		serve(fd);
		close(fd);
	}
}
