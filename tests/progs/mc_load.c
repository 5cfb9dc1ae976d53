// SPDX-License-Identifier: GPL-2.0
/*
 * mc_load: a closed-loop load generator for memcached's text protocol, for
 * scripts/bench-vm.sh (section servers).  CONNS threads, each with a TCP
 * connection of its own to 127.0.0.1:PORT, store their KEYS keys of SIZE
 * bytes, then make REQS requests each, one at a time: every tenth a set,
 * the others a get of one of its keys (memaslap's default mix, 9:1).  Each
 * response is read whole and checked byte for byte (a get returns the value
 * the thread stored).  Prints the requests per second over all threads,
 * from the moment all are connected and loaded to the moment all are done,
 * and the 50th and 99th percentiles of the request latency in microseconds:
 *
 *   mc_load PORT CONNS REQS [SIZE]      ->  "OPS_PER_S P50_US P99_US"
 *
 * Debian's memcaslap (libmemcached-tools) measures throughput, but its
 * latencies come only as a power-of-two histogram, too coarse for a p99
 * ratio.  Exit status 1 on bad arguments, 2 on a connection or protocol
 * error (with the reason on stderr).
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>

#define KEYS 16

static int port;
static long reqs;
static size_t size;
static pthread_barrier_t loaded;

struct conn {
	int id;
	long *lat;		/* reqs latencies, ns */
	pthread_t t;
};

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void die(int id, const char *what)
{
	fprintf(stderr, "mc_load: connection %d: %s: %s\n", id, what,
		errno ? strerror(errno) : "unexpected response");
	exit(2);
}

static void send_all(int fd, int id, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w <= 0) {
			if (w < 0 && errno == EINTR)
				continue;
			die(id, "write");
		}
		p += w;
		n -= (size_t)w;
	}
}

/* exactly n bytes of response, compared with want */
static void expect(int fd, int id, char *buf, const char *want, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, buf + got, n - got);

		if (r <= 0) {
			if (r < 0 && errno == EINTR)
				continue;
			if (!r)
				errno = ECONNRESET;
			die(id, "read");
		}
		got += (size_t)r;
	}
	if (memcmp(buf, want, n)) {
		errno = 0;
		die(id, "compare");
	}
}

/* the value of key k of connection id: recognisable bytes */
static void fill_value(char *v, int id, int k)
{
	size_t i;

	for (i = 0; i < size; i++)
		v[i] = (char)('a' + (id * 7 + k * 3 + (int)i) % 26);
}

static void *worker(void *arg)
{
	struct conn *c = arg;
	struct sockaddr_in sa = {
		.sin_family = AF_INET,
		.sin_port = htons((unsigned short)port),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	size_t cap = size + 128;
	char *set_req[KEYS], *get_req[KEYS], *get_resp[KEYS];
	size_t set_len[KEYS], get_len[KEYS], get_resp_len[KEYS];
	char *v = malloc(size), *buf = malloc(cap);
	int fd, one = 1, k;
	long i;

	if (!v || !buf)
		die(c->id, "malloc");
	for (k = 0; k < KEYS; k++) {
		char key[32];
		int n;

		snprintf(key, sizeof(key), "k%d_%d", c->id, k);
		fill_value(v, c->id, k);
		set_req[k] = malloc(cap);
		get_req[k] = malloc(64);
		get_resp[k] = malloc(cap);
		if (!set_req[k] || !get_req[k] || !get_resp[k])
			die(c->id, "malloc");
		n = snprintf(set_req[k], cap, "set %s 0 0 %zu\r\n", key, size);
		memcpy(set_req[k] + n, v, size);
		memcpy(set_req[k] + n + size, "\r\n", 2);
		set_len[k] = (size_t)n + size + 2;
		get_len[k] = (size_t)snprintf(get_req[k], 64, "get %s\r\n", key);
		n = snprintf(get_resp[k], cap, "VALUE %s 0 %zu\r\n", key, size);
		memcpy(get_resp[k] + n, v, size);
		memcpy(get_resp[k] + n + size, "\r\nEND\r\n", 7);
		get_resp_len[k] = (size_t)n + size + 7;
	}
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
		die(c->id, "connect");
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	for (k = 0; k < KEYS; k++) {
		send_all(fd, c->id, set_req[k], set_len[k]);
		expect(fd, c->id, buf, "STORED\r\n", 8);
	}
	pthread_barrier_wait(&loaded);
	for (i = 0; i < reqs; i++) {
		long long t0 = now_ns();

		k = (int)(i % KEYS);
		if (i % 10 == 9) {
			send_all(fd, c->id, set_req[k], set_len[k]);
			expect(fd, c->id, buf, "STORED\r\n", 8);
		} else {
			send_all(fd, c->id, get_req[k], get_len[k]);
			expect(fd, c->id, buf, get_resp[k], get_resp_len[k]);
		}
		c->lat[i] = (long)(now_ns() - t0);
	}
	close(fd);
	for (k = 0; k < KEYS; k++) {
		free(set_req[k]);
		free(get_req[k]);
		free(get_resp[k]);
	}
	free(v);
	free(buf);
	return NULL;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	struct conn *c;
	long *all;
	long long t0, t1;
	long n, i;
	int conns, j;

	if (argc < 4 || argc > 5) {
		fprintf(stderr, "usage: mc_load PORT CONNS REQS [SIZE]\n");
		return 1;
	}
	port = atoi(argv[1]);
	conns = atoi(argv[2]);
	reqs = atol(argv[3]);
	size = argc > 4 ? (size_t)atol(argv[4]) : 1024;
	if (port <= 0 || port > 65535 || conns <= 0 || conns > 1024 ||
	    reqs <= 0 || size == 0 || size > (1 << 20)) {
		fprintf(stderr, "mc_load: bad arguments\n");
		return 1;
	}
	n = (long)conns * reqs;
	c = calloc((size_t)conns, sizeof(*c));
	all = malloc((size_t)n * sizeof(*all));
	if (!c || !all)
		return 2;
	pthread_barrier_init(&loaded, NULL, (unsigned int)conns + 1);
	for (j = 0; j < conns; j++) {
		c[j].id = j;
		c[j].lat = all + (long)j * reqs;
		if (pthread_create(&c[j].t, NULL, worker, &c[j])) {
			fprintf(stderr, "mc_load: pthread_create failed\n");
			return 2;
		}
	}
	pthread_barrier_wait(&loaded);
	t0 = now_ns();
	for (j = 0; j < conns; j++)
		pthread_join(c[j].t, NULL);
	t1 = now_ns();
	qsort(all, (size_t)n, sizeof(*all), cmp_long);
	i = (n * 99 + 99) / 100 - 1;	/* nearest rank */
	printf("%.1f %.1f %.1f\n", (double)n * 1e9 / (double)(t1 - t0),
	       all[(n + 1) / 2 - 1] / 1000.0, all[i] / 1000.0);
	pthread_barrier_destroy(&loaded);
	free(all);
	free(c);
	return 0;
}
