#ifndef _STDIO_H
#define _STDIO_H
#include <stddef.h>
/* Printing reads its integer arguments (they are loads of the program)
   and orders nothing; files other than stdout and stderr are outside the
   subset (libc_io.go). */
typedef struct __cfront_file FILE;
extern FILE *stdin;
extern FILE *stdout;
extern FILE *stderr;
#define stdin stdin
#define stdout stdout
#define stderr stderr
#define EOF (-1)
int printf(const char *format, ...);
int fprintf(FILE *stream, const char *format, ...);
int puts(const char *s);
int fputs(const char *s, FILE *stream);
int putchar(int c);
int fputc(int c, FILE *stream);
int putc(int c, FILE *stream);
int fflush(FILE *stream);
void setbuf(FILE *stream, char *buf);
int setvbuf(FILE *stream, char *buf, int mode, size_t size);
#define _IOFBF 0
#define _IOLBF 1
#define _IONBF 2
#define BUFSIZ 8192
void perror(const char *s);
int sprintf(char *str, const char *format, ...);
int snprintf(char *str, size_t size, const char *format, ...);
FILE *fopen(const char *path, const char *mode);
int fclose(FILE *stream);
int scanf(const char *format, ...);
int fscanf(FILE *stream, const char *format, ...);
#endif
