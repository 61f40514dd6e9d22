// SPDX-License-Identifier: MIT
/*
 * Pictures written as PNG: see picture.h. libpng writes into memory and the
 * bytes go to the file through nb_write_file_atomic(), so a failed or
 * interrupted write leaves no half-written picture behind.
 */
#include <errno.h>
#include <math.h>
#ifndef NB_WITHOUT_LIBPNG
#include <png.h>
#endif
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "print/picture.h"
#include "print/print.h"

/*
 * The labels' font: the few characters the pictures need, 5 x 7 pixels,
 * drawn here ('#' ink, '.' paper) so that no font file is needed.
 */
static const struct glyph {
	char c;
	const char *row[7];
} font[] = {
	{ ' ', { ".....", ".....", ".....", ".....", ".....", ".....", "....." } },
	{ '+', { ".....", "..#..", "..#..", "#####", "..#..", "..#..", "....." } },
	{ '-', { ".....", ".....", ".....", "#####", ".....", ".....", "....." } },
	{ '=', { ".....", ".....", "#####", ".....", "#####", ".....", "....." } },
	{ '(', { "...#.", "..#..", ".#...", ".#...", ".#...", "..#..", "...#." } },
	{ ')', { ".#...", "..#..", "...#.", "...#.", "...#.", "..#..", ".#..." } },
	{ '0', { ".###.", "#...#", "#..##", "#.#.#", "##..#", "#...#", ".###." } },
	{ '1', { "..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###." } },
	{ '2', { ".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####" } },
	{ '3', { "####.", "....#", "....#", ".###.", "....#", "....#", "####." } },
	{ '4', { "...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#." } },
	{ '5', { "#####", "#....", "####.", "....#", "....#", "#...#", ".###." } },
	{ '6', { "..##.", ".#...", "#....", "####.", "#...#", "#...#", ".###." } },
	{ '7', { "#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..." } },
	{ '8', { ".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###." } },
	{ '9', { ".###.", "#...#", "#...#", ".####", "....#", "...#.", ".##.." } },
	{ 'a', { ".....", ".....", ".###.", "....#", ".####", "#...#", ".####" } },
	{ 'c', { ".....", ".....", ".###.", "#....", "#....", "#...#", ".###." } },
	{ 'd', { "....#", "....#", ".####", "#...#", "#...#", "#...#", ".####" } },
	{ 'e', { ".....", ".....", ".###.", "#...#", "#####", "#....", ".###." } },
	{ 'f', { "..##.", ".#..#", ".#...", "###..", ".#...", ".#...", ".#..." } },
	{ 'h', { "#....", "#....", "#.##.", "##..#", "#...#", "#...#", "#...#" } },
	{ 'i', { "..#..", ".....", ".##..", "..#..", "..#..", "..#..", ".###." } },
	{ 'l', { ".##..", "..#..", "..#..", "..#..", "..#..", "..#..", ".###." } },
	{ 'm', { ".....", ".....", "##.#.", "#.#.#", "#.#.#", "#...#", "#...#" } },
	{ 'n', { ".....", ".....", "#.##.", "##..#", "#...#", "#...#", "#...#" } },
	{ 'o', { ".....", ".....", ".###.", "#...#", "#...#", "#...#", ".###." } },
	{ 'p', { ".....", ".....", "####.", "#...#", "#...#", "####.", "#...." } },
	{ 'r', { ".....", ".....", "#.##.", "##..#", "#....", "#....", "#...." } },
	{ 's', { ".....", ".....", ".####", "#....", ".###.", "....#", "####." } },
	{ 't', { ".#...", ".#...", "###..", ".#...", ".#...", ".#..#", "..##." } },
	{ 'u', { ".....", ".....", "#...#", "#...#", "#...#", "#..##", ".##.#" } },
	{ 'v', { ".....", ".....", "#...#", "#...#", "#...#", ".#.#.", "..#.." } },
	{ 'w', { ".....", ".....", "#...#", "#...#", "#.#.#", "#.#.#", ".#.#." } },
	{ 'x', { ".....", ".....", "#...#", ".#.#.", "..#..", ".#.#.", "#...#" } },
};

#define GLYPH_W 5
#define GLYPH_H 7
#define GLYPH_ADVANCE 6

static const struct glyph *glyph_of(char c)
{
	for (size_t i = 0; i < sizeof(font) / sizeof(font[0]); i++)
		if (font[i].c == c)
			return &font[i];
	return &font[0];	/* a character the font lacks: a space */
}

struct nb_canvas *nb_canvas_new(int width, int height)
{
	struct nb_canvas *c = calloc(1, sizeof(*c));

	if (!c || width <= 0 || height <= 0) {
		free(c);
		return NULL;
	}
	c->width = width;
	c->height = height;
	c->rgb = malloc((size_t)width * height * 3);
	if (!c->rgb) {
		free(c);
		return NULL;
	}
	memset(c->rgb, 0xff, (size_t)width * height * 3);
	return c;
}

void nb_canvas_free(struct nb_canvas *c)
{
	if (c)
		free(c->rgb);
	free(c);
}

static void put(struct nb_canvas *c, int x, int y, uint8_t r, uint8_t g, uint8_t b)
{
	if (x < 0 || y < 0 || x >= c->width || y >= c->height)
		return;
	uint8_t *p = c->rgb + ((size_t)y * c->width + x) * 3;

	p[0] = r;
	p[1] = g;
	p[2] = b;
}

void nb_canvas_fill(struct nb_canvas *c, int x, int y, int w, int h,
		    uint8_t r, uint8_t g, uint8_t b)
{
	for (int j = 0; j < h; j++)
		for (int i = 0; i < w; i++)
			put(c, x + i, y + j, r, g, b);
}

static uint8_t level(float v)
{
	if (!(v > 0))		/* NaN too: drawn black */
		return 0;
	if (v >= 1)
		return 255;
	/* in double: 255 v + 0.5 is exact, so any reader can compute the same level */
	return (uint8_t)floor(255.0 * v + 0.5);
}

void nb_canvas_frame(struct nb_canvas *c, int x, int y, const float *px,
		     int h, int w, int channels, int scale)
{
	for (int j = 0; j < h; j++) {
		for (int i = 0; i < w; i++) {
			const float *p = px + ((size_t)j * w + i) * channels;
			uint8_t r = level(p[0]);
			uint8_t g = channels >= 3 ? level(p[1]) : r;
			uint8_t b = channels >= 3 ? level(p[2]) : r;

			nb_canvas_fill(c, x + i * scale, y + j * scale, scale, scale, r, g, b);
		}
	}
}

int nb_text_width(const char *s, int scale)
{
	size_t n = strlen(s);

	return n ? (int)((n - 1) * GLYPH_ADVANCE + GLYPH_W) * scale : 0;
}

void nb_canvas_text(struct nb_canvas *c, int x, int y, const char *s, int scale)
{
	for (; *s; s++, x += GLYPH_ADVANCE * scale) {
		const struct glyph *g = glyph_of(*s);

		for (int j = 0; j < GLYPH_H; j++)
			for (int i = 0; i < GLYPH_W; i++)
				if (g->row[j][i] == '#')
					nb_canvas_fill(c, x + i * scale, y + j * scale,
						       scale, scale, 0, 0, 0);
	}
}

#ifndef NB_WITHOUT_LIBPNG
struct membuf {
	unsigned char *data;
	size_t len, cap;
	bool oom;
};

static void mem_write(png_structp png, png_bytep data, png_size_t len)
{
	struct membuf *m = png_get_io_ptr(png);

	if (m->oom)
		return;
	if (m->len + len > m->cap) {
		size_t cap = m->cap ? m->cap : 65536;
		unsigned char *d;

		while (cap < m->len + len)
			cap *= 2;
		d = realloc(m->data, cap);
		if (!d) {
			m->oom = true;
			return;
		}
		m->data = d;
		m->cap = cap;
	}
	memcpy(m->data + m->len, data, len);
	m->len += len;
}

static void mem_flush(png_structp png)
{
	(void)png;
}

/* libpng reports errors through longjmp; the bytes are built here first. */
static int encode(const struct nb_canvas *c, struct membuf *m)
{
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png ? png_create_info_struct(png) : NULL;
	png_bytep *rows = malloc(sizeof(png_bytep) * c->height);
	int rc = -1;

	if (!png || !info || !rows)
		goto out;
	if (setjmp(png_jmpbuf(png)))
		goto out;
	png_set_write_fn(png, m, mem_write, mem_flush);
	png_set_IHDR(png, info, c->width, c->height, 8, PNG_COLOR_TYPE_RGB,
		     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	for (int y = 0; y < c->height; y++)
		rows[y] = c->rgb + (size_t)y * c->width * 3;
	png_set_rows(png, info, rows);
	png_write_png(png, info, PNG_TRANSFORM_IDENTITY, NULL);
	rc = m->oom ? -1 : 0;
out:
	png_destroy_write_struct(png ? &png : NULL, info ? &info : NULL);
	free(rows);
	return rc;
}

int nb_canvas_write_png(const struct nb_canvas *c, const char *path)
{
	struct membuf m = { 0 };
	int rc;

	if (encode(c, &m)) {
		fprintf(stderr, "navibench: %s: cannot encode the PNG (out of memory)\n", path);
		free(m.data);
		return -1;
	}
	rc = nb_write_file_atomic(path, m.data, m.len);
	free(m.data);
	if (rc) {
		fprintf(stderr, "navibench: cannot write %s: %s\n", path, strerror(-rc));
		return -1;
	}
	return 0;
}
#else
int nb_canvas_write_png(const struct nb_canvas *c, const char *path)
{
	(void)c;
	fprintf(stderr, "navibench: %s: writing PNG is off in this build: it needs libpng "
		"(install libpng-dev, then rebuild: make -C user)\n", path);
	return -1;
}
#endif
