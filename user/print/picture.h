/* SPDX-License-Identifier: MIT */
/*
 * Pictures: an RGB canvas, frames drawn onto it scaled up, short labels in
 * a built-in 5x7 font, written as PNG with libpng (atomically, through
 * nb_write_file_atomic()). For `navibench predict --png`.
 */
#ifndef NAVIBENCH_PICTURE_H
#define NAVIBENCH_PICTURE_H

#include <stdint.h>

struct nb_canvas {
	int width, height;
	uint8_t *rgb;		/* width x height x 3, rows top to bottom */
};

/* A canvas filled with the background colour; NULL on out of memory. */
struct nb_canvas *nb_canvas_new(int width, int height);
void nb_canvas_free(struct nb_canvas *c);

void nb_canvas_fill(struct nb_canvas *c, int x, int y, int w, int h,
		    uint8_t r, uint8_t g, uint8_t b);
/*
 * nb_canvas_frame() - a frame of h x w pixels of channels floats (1: grey,
 * 3: RGB), each clamped to [0, 1] and drawn as floor(255 v + 0.5), every
 * pixel as a scale x scale block with its top left corner at (x, y).
 */
void nb_canvas_frame(struct nb_canvas *c, int x, int y, const float *px,
		     int h, int w, int channels, int scale);
/* Text in the built-in font (lower case, digits, " +-=()"), black. */
void nb_canvas_text(struct nb_canvas *c, int x, int y, const char *s, int scale);
/* The width in pixels nb_canvas_text() draws s with; the height is 7 x scale. */
int nb_text_width(const char *s, int scale);

/* Writes the canvas to path as 8-bit RGB PNG. 0, or -1 after saying why. */
int nb_canvas_write_png(const struct nb_canvas *c, const char *path);

#endif /* NAVIBENCH_PICTURE_H */
