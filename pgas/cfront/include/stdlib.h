#ifndef _STDLIB_H
#define _STDLIB_H
#include <stddef.h>
void abort(void);
void exit(int status);
void *malloc(size_t n);
void *calloc(size_t n, size_t size);
void free(void *p);
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#endif
