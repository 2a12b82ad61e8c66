#ifndef _STDLIB_H
#define _STDLIB_H
#include <stddef.h>
void abort(void);
void exit(int status);
void _Exit(int status);
void *malloc(size_t n);
void *calloc(size_t n, size_t size);
void *realloc(void *p, size_t n);
void free(void *p);
int atoi(const char *s);
long atol(const char *s);
long long atoll(const char *s);
long strtol(const char *s, char **end, int base);
unsigned long strtoul(const char *s, char **end, int base);
long long strtoll(const char *s, char **end, int base);
unsigned long long strtoull(const char *s, char **end, int base);
int abs(int x);
long labs(long x);
long long llabs(long long x);
char *getenv(const char *name);
int rand(void);
void srand(unsigned seed);
int atexit(void (*f)(void));
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define RAND_MAX 2147483647
#endif
