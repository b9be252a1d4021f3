/* cpu.c: the C side of bench/cpu/run.sh: single-threaded loops of the
 * workloads of issue 27's table, built with the system cc -O2 (no -march,
 * no OpenMP: what a plain C loop gives). Each workload runs REPS times
 * and prints "name best_ms" with the best time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N (1 << 24)
#define SIDE 4096 /* N = SIDE * SIDE */
#define REPS 10

static double now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static float *x, *y, *z, *row;
static volatile float sink;

static void axpy(void) { float a = 0.5f; for (int i = 0; i < N; i++) y[i] += a * x[i]; }
static void axpbz(void) { float a = 0.5f; for (int i = 0; i < N; i++) z[i] = a * x[i] + y[i]; }
static void where(void) { for (int i = 0; i < N; i++) z[i] = x[i] > 0 ? x[i] : 0; }
static void sum(void) { float s = 0; for (int i = 0; i < N; i++) s += x[i]; sink = s; }
static void max(void) {
	float m = x[0];
	for (int i = 1; i < N; i++) m = x[i] > m ? x[i] : m;
	sink = m;
}
static void sum_axis1(void) {
	for (int r = 0; r < SIDE; r++) {
		float s = 0;
		for (int c = 0; c < SIDE; c++) s += x[r * SIDE + c];
		row[r] = s;
	}
}
static void cumsum(void) {
	float s = 0;
	for (int i = 0; i < N; i++) s += x[i], z[i] = s;
}
static void saxpy(void) { float a = 0.5f; for (int i = 0; i < N; i++) y[i] = a * x[i] + y[i]; }
static void jacobi(void) {
	for (int i = 1; i < SIDE - 1; i++)
		for (int j = 1; j < SIDE - 1; j++)
			z[i * SIDE + j] = 0.25f * (x[(i - 1) * SIDE + j] + x[(i + 1) * SIDE + j] + x[i * SIDE + j - 1] + x[i * SIDE + j + 1]);
}

static void bench(const char *name, void (*f)(void)) {
	double best = 1e30;
	f(); /* warm-up */
	for (int r = 0; r < REPS; r++) {
		double t0 = now();
		f();
		double dt = now() - t0;
		if (dt < best) best = dt;
	}
	printf("%s %.3f\n", name, best * 1e3);
}

int main(void) {
	x = malloc(N * sizeof(float)), y = malloc(N * sizeof(float)), z = malloc(N * sizeof(float));
	row = malloc(SIDE * sizeof(float));
	for (int i = 0; i < N; i++) x[i] = (float)(i % 7) - 3.0f, y[i] = 1.0f, z[i] = 0;
	bench("axpy", axpy);
	bench("axpbz", axpbz);
	bench("axpbz_store", axpbz);
	bench("where", where);
	bench("where_store", where);
	bench("sum", sum);
	bench("max", max);
	bench("sum_axis1", sum_axis1);
	bench("cumsum", cumsum);
	bench("saxpy", saxpy);
	bench("jacobi", jacobi);
	return 0;
}
