// SPDX-License-Identifier: MIT
/*
 * The deterministic PRNG and the Keras conv_lstm example's moving squares.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void nb_rng_seed(struct nb_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t nb_rng_next(struct nb_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

int nb_rng_int(struct nb_rng *r, int lo, int hi)
{
	uint64_t span = (uint64_t)(hi - lo);
	/* rejection, so every value is equally likely */
	uint64_t limit = UINT64_MAX - UINT64_MAX % span;
	uint64_t x;

	do
		x = nb_rng_next(r);
	while (x >= limit);
	return lo + (int)(x % span);
}

double nb_rng_uniform(struct nb_rng *r)
{
	return (double)(nb_rng_next(r) >> 11) * 0x1.0p-53;
}

double nb_rng_normal(struct nb_rng *r)
{
	/* Box-Muller; 1 - u keeps the logarithm's argument in (0, 1] */
	double u = 1.0 - nb_rng_uniform(r), v = nb_rng_uniform(r);

	return sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * v);
}

#define CANVAS 80

/* canvas[y][x][ch] += value over rows [r0, r1) and columns [c0, c1) */
static void paint(float *canvas, int channels, int r0, int r1, int c0, int c1,
		  const float *value)
{
	for (int y = r0 < 0 ? 0 : r0; y < r1 && y < CANVAS; y++)
		for (int x = c0 < 0 ? 0 : c0; x < c1 && x < CANVAS; x++)
			for (int ch = 0; ch < channels; ch++)
				canvas[((size_t)y * CANVAS + x) * channels + ch] +=
					value[ch];
}

static void crop(const float *canvas, int channels, int height, int width,
		 float *out)
{
	int y0 = (CANVAS - height) / 2, x0 = (CANVAS - width) / 2;

	for (int y = 0; y < height; y++)
		for (int x = 0; x < width; x++)
			for (int ch = 0; ch < channels; ch++) {
				float v = canvas[((size_t)(y + y0) * CANVAS +
						  x + x0) * channels + ch];

				out[((size_t)y * width + x) * channels + ch] =
					v >= 1.0f ? 1.0f : v;
			}
}

void nb_movie_generate(uint64_t seed, int batch, int frames, int height,
		       int width, int channels, float *movie, float *next)
{
	size_t frame = (size_t)height * width * channels;
	size_t canvas_n = (size_t)CANVAS * CANVAS * channels;
	float *cm = calloc(canvas_n * frames, sizeof(float));
	float *cn = calloc(canvas_n * frames, sizeof(float));
	struct nb_rng r;

	if (!cm || !cn)
		abort();
	nb_rng_seed(&r, seed);
	for (int b = 0; b < batch; b++) {
		memset(cm, 0, canvas_n * frames * sizeof(float));
		memset(cn, 0, canvas_n * frames * sizeof(float));
		int n = nb_rng_int(&r, 3, 8);

		for (int j = 0; j < n; j++) {
			int xstart = nb_rng_int(&r, 20, 60);
			int ystart = nb_rng_int(&r, 20, 60);
			int dx = nb_rng_int(&r, 0, 3) - 1;
			int dy = nb_rng_int(&r, 0, 3) - 1;
			int w = nb_rng_int(&r, 2, 4);
			float colour[NB_MOVIE_MAX_CHANNELS];

			for (int ch = 0; ch < channels; ch++)
				colour[ch] = channels == 1 ? 1.0f :
					0.25f + 0.75f * (float)nb_rng_uniform(&r);
			for (int t = 0; t < frames; t++) {
				float *m = cm + canvas_n * t;
				float *nx = cn + canvas_n * t;
				int xs = xstart + dx * t, ys = ystart + dy * t;

				paint(m, channels, xs - w, xs + w, ys - w,
				      ys + w, colour);
				if (nb_rng_int(&r, 0, 2)) {
					float s = nb_rng_int(&r, 0, 2) ?
						-0.1f : 0.1f;
					float noise[NB_MOVIE_MAX_CHANNELS];

					for (int ch = 0; ch < channels; ch++)
						noise[ch] = s;

					paint(m, channels, xs - w - 1,
					      xs + w + 1, ys - w - 1,
					      ys + w + 1, noise);
				}
				xs = xstart + dx * (t + 1);
				ys = ystart + dy * (t + 1);
				paint(nx, channels, xs - w, xs + w, ys - w,
				      ys + w, colour);
			}
		}
		for (int t = 0; t < frames; t++) {
			size_t o = ((size_t)b * frames + t) * frame;

			crop(cm + canvas_n * t, channels, height, width,
			     movie + o);
			if (next)
				crop(cn + canvas_n * t, channels, height,
				     width, next + o);
		}
	}
	free(cm);
	free(cn);
}
