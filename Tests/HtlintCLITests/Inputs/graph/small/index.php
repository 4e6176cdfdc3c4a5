<?php // site
